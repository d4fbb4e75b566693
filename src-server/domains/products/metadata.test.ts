import { beforeAll, describe, expect, test } from 'bun:test'
import { checkMetadataValue, type MetadataField } from '../../../src/domains/products/metadata'
import { adminToken, appCode, MISSING_UUID, tableCounts } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'

const field = (type: MetadataField['type'], more: Partial<MetadataField> = {}): MetadataField => ({
  name: 'f',
  type,
  options: [],
  multiple: false,
  mandatory: false,
  ...more,
})

describe('metadata values by field type (shared rule)', () => {
  const ok = (f: MetadataField, value: unknown) => checkMetadataValue(f, value)
  test('each type accepts its values and refuses others', () => {
    const cases: [MetadataField, unknown[], unknown[]][] = [
      [field('text'), ['abc', '', ' x '], [1, true, ['a'], 'x'.repeat(5001)]],
      [field('text', { multiple: true }), [['a', 'b'], []], ['a', [1]]],
      [field('number'), [0, -1.5, 1e9], ['1', Number.NaN, Infinity, [1]]],
      [field('number', { multiple: true }), [[1, 2.5]], [[1, '2']]],
      [field('boolean'), [true, false], ['true', 1, [true]]],
      [field('ternary'), ['true', 'false', 'na'], [true, 'NA', 'maybe']],
      [field('choice', { options: ['Rosso', 'Blu'] }), ['Rosso', 'Blu'], ['rosso', 'Verde', ['Rosso']]],
      [field('choice', { options: ['Rosso', 'Blu'], multiple: true }), [['Rosso', 'Blu'], ['Blu']], ['Rosso', ['Rosso', 'Rosso'], ['Verde']]],
      [field('date'), ['2026-11-21', '2024-02-29', '2026/11/21', '0099/01/01'], ['2026/11-21', '2026-02-30', '0000-01-01', '2023-02-29', '21-11-2026', '2026-13-01']],
      [field('time'), ['00:00', '23:59', '08:30'], ['24:00', '8:30', '12:60', '12:30:00']],
      [field('files'), [['disegno.pdf'], []], ['disegno.pdf', ['a.pdf', 'b.pdf'], ['../x.pdf'], ['a/b.pdf']]],
      [field('files', { multiple: true }), [['a.pdf', 'b.png']], [['a.pdf', 'a.pdf'], ['.hidden']]],
    ]
    for (const [f, good, bad] of cases) {
      for (const v of good) expect({ type: f.type, multiple: f.multiple, v, ok: ok(f, v).ok }).toEqual({ type: f.type, multiple: f.multiple, v, ok: true })
      for (const v of bad) expect({ type: f.type, multiple: f.multiple, v, ok: ok(f, v).ok }).toEqual({ type: f.type, multiple: f.multiple, v, ok: false })
    }
  })

  test('empty values: stored as null or [], refused when mandatory', () => {
    expect(ok(field('text'), '  ')).toEqual({ ok: true, value: null })
    expect(ok(field('text'), ' a ')).toEqual({ ok: true, value: 'a' })
    expect(ok(field('number'), null)).toEqual({ ok: true, value: null })
    expect(ok(field('files'), null)).toEqual({ ok: true, value: [] })
    expect(ok(field('text', { multiple: true }), [' a', '  '])).toEqual({ ok: true, value: ['a'] })
    for (const v of [null, '', '  ', []]) {
      expect(ok(field('text', { mandatory: true }), v)).toEqual({ ok: false, problem: 'a value is required (mandatory field)', required: true })
    }
    expect(ok(field('boolean', { mandatory: true }), false)).toEqual({ ok: true, value: false })
    expect(ok(field('number', { mandatory: true }), 0)).toEqual({ ok: true, value: 0 })
  })
})

describe('product metadata through the API', () => {
  const h = useHarness()
  let admin: string
  let lib: string
  const fields: Record<string, string> = {}
  let product: string

  async function newField(name: string, body: Record<string, unknown>) {
    const res = await h.request('POST', '/api/field', { token: admin, body: { name, ...body } })
    expect(res.status).toBe(201)
    fields[name] = res.body.detail._key
  }

  beforeAll(async () => {
    admin = await adminToken(h)
    lib = (await userWithScope(h, 'lib', 'library')).token
    await newField('Testo', { type: 'text' })
    await newField('Peso', { type: 'number', mandatory: true })
    await newField('Verniciato', { type: 'boolean' })
    await newField('RoHS', { type: 'ternary' })
    await newField('Colore', { type: 'choice', options: ['Rosso', 'Blu'] })
    await newField('Finiture', { type: 'choice', options: ['Opaca', 'Lucida', 'Satinata'], multiple: true })
    await newField('Omologazione', { type: 'date' })
    await newField('Turno', { type: 'time' })
    await newField('Disegni', { type: 'files', multiple: true })
    product = (await h.request('POST', '/api/product', { token: lib, body: { code: 'META-1' } })).body.detail._key
  })

  const put = (metadata: unknown) => h.request('PUT', `/api/product/${product}`, { token: lib, body: { code: 'META-1', metadata } })

  test('values typed by their field are stored and come back', async () => {
    const metadata = [
      { custom_field_key: fields.Testo, value: ' Nota libera ' },
      { custom_field_key: fields.Peso, value: 12.5 },
      { custom_field_key: fields.Verniciato, value: true },
      { custom_field_key: fields.RoHS, value: 'na' },
      { custom_field_key: fields.Colore, value: 'Blu' },
      { custom_field_key: fields.Finiture, value: ['Opaca', 'Satinata'] },
      { custom_field_key: fields.Omologazione, value: '2026-03-15' },
      { custom_field_key: fields.Turno, value: '06:00' },
      { custom_field_key: fields.Disegni, value: [] },
    ]
    const res = await put(metadata)
    expect(res.status).toBe(200)
    expect(res.body.detail.metadata).toEqual(metadata.map((m) => (m.custom_field_key === fields.Testo ? { ...m, value: 'Nota libera' } : m)))
    const event = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'PRODUCT_UPDATED').where('subject_key', '=', product).executeTakeFirstOrThrow()
    expect(event.data).toMatchObject({ changed: ['metadata'] })
  })

  test('a day written YYYY/MM/DD (SPEC 5) is taken as well, and stored in the one form', async () => {
    const res = await put([{ custom_field_key: fields.Omologazione, value: '1999/12/01' }])
    expect(res.status).toBe(200)
    expect(res.body.detail.metadata).toEqual([{ custom_field_key: fields.Omologazione, value: '1999-12-01' }])
  })

  test('a wrong value is refused with METADATA_VALUE_INVALID naming the field; nothing written', async () => {
    const before = await tableCounts(h)
    const cases: [string, unknown, string][] = [
      ['Peso', 'dodici', 'metadata "Peso": expected a number'],
      ['Peso', null, 'metadata "Peso": a value is required (mandatory field)'],
      ['Verniciato', 'yes', 'metadata "Verniciato": expected true or false'],
      ['RoHS', 'forse', `metadata "RoHS": expected 'true', 'false' or 'na'`],
      ['Colore', 'Verde', 'metadata "Colore": expected one of: Rosso, Blu'],
      ['Colore', ['Rosso'], 'metadata "Colore": expected a single value'],
      ['Finiture', 'Opaca', 'metadata "Finiture": expected a list of values'],
      ['Omologazione', '2026-02-30', 'metadata "Omologazione": 2026-02-30 is not a calendar date: February 2026 has 28 days'],
      ['Omologazione', '15/03/2026', 'metadata "Omologazione": "15/03/2026" is not a date: dates are written YYYY/MM/DD or YYYY-MM-DD'],
      ['Omologazione', 20260315, 'metadata "Omologazione": expected a date YYYY/MM/DD or YYYY-MM-DD'],
      ['Turno', '25:00', `metadata "Turno": expected a time 'HH:MM'`],
      ['Disegni', ['../../etc/passwd'], 'metadata "Disegni": expected a stored file name'],
    ]
    for (const [name, value, message] of cases) {
      const res = await put([{ custom_field_key: fields[name], value }])
      expect({ name, status: res.status, code: appCode(res.body), message: res.body.detail.message }).toEqual({
        name,
        status: 400,
        code: 'METADATA_VALUE_INVALID',
        message,
      })
      expect(res.body.detail).toMatchObject({ custom_field_key: fields[name], index: 0 })
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('fields must exist, appear once and not be archived (unless the product already had them)', async () => {
    const before = await tableCounts(h)
    let res = await put([{ custom_field_key: MISSING_UUID, value: 'x' }])
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'UNKNOWN_FIELD' })
    res = await put([{ custom_field_key: 'not-a-key', value: 'x' }])
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    res = await put([
      { custom_field_key: fields.Testo, value: 'a' },
      { custom_field_key: fields.Testo!.toUpperCase(), value: 'b' },
    ])
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    expect(await tableCounts(h)).toEqual(before)

    // The product uses "Turno"; once archived it stays usable here, but no other product can add it.
    await put([{ custom_field_key: fields.Turno, value: '07:00' }])
    await h.request('PATCH', `/api/field/${fields.Turno}`, { token: admin, body: { active: false } })
    res = await put([{ custom_field_key: fields.Turno, value: '08:00' }])
    expect(res.status).toBe(200)
    const other = await h.request('POST', '/api/product', { token: lib, body: { code: 'META-2', metadata: [{ custom_field_key: fields.Turno, value: '09:00' }] } })
    expect({ status: other.status, code: appCode(other.body) }).toEqual({ status: 400, code: 'FIELD_ARCHIVED' })
    await h.request('PATCH', `/api/field/${fields.Turno}`, { token: admin, body: { active: true } })
  })

  test('a field used by product metadata is in use: its type is fixed and deleting archives it', async () => {
    await put([{ custom_field_key: fields.Colore, value: 'Rosso' }])
    const row = await h.request('GET', `/api/field/${fields.Colore}`, { token: admin })
    expect(row.body.detail.in_use).toBe(true)
    const retype = await h.request('PATCH', `/api/field/${fields.Colore}`, { token: admin, body: { type: 'text' } })
    expect({ status: retype.status, code: appCode(retype.body) }).toEqual({ status: 409, code: 'FIELD_IN_USE' })
    expect(retype.body.detail.message).toContain('product metadata: META-1')
    expect(retype.body.detail.metadata_products).toEqual(['META-1'])
    const del = await h.request('DELETE', `/api/field/${fields.Colore}`, { token: admin })
    expect(del.body.detail).toMatchObject({ deleted: false, archived: true })
    // A field no product (nor operation) uses is deleted for good.
    expect((await h.request('GET', `/api/field/${fields.RoHS}`, { token: admin })).body.detail.in_use).toBe(false)
    const gone = await h.request('DELETE', `/api/field/${fields.RoHS}`, { token: admin })
    expect(gone.body.detail).toMatchObject({ deleted: true })
  })

  test('metadata given on creation is checked too', async () => {
    const bad = await h.request('POST', '/api/product', { token: lib, body: { code: 'META-3', metadata: [{ custom_field_key: fields.Peso, value: 'x' }] } })
    expect({ status: bad.status, code: appCode(bad.body) }).toEqual({ status: 400, code: 'METADATA_VALUE_INVALID' })
    const files = await h.request('POST', '/api/product', { token: lib, body: { code: 'META-3', metadata: [{ custom_field_key: fields.Disegni, value: ['a.pdf'] }] } })
    expect({ status: files.status, code: appCode(files.body) }).toEqual({ status: 400, code: 'UNKNOWN_FILE' })
    const good = await h.request('POST', '/api/product', { token: lib, body: { code: 'META-3', metadata: [{ custom_field_key: fields.Peso, value: 3 }] } })
    expect(good.status).toBe(201)
    expect(good.body.detail.metadata).toEqual([{ custom_field_key: fields.Peso, value: 3 }])
  })
})

