import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'

const countOf = async (h: Harness, table: 'operations' | 'events') =>
  Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
const eventsOf = (h: Harness, type: string) => h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()

describe('operations', () => {
  const h = useHarness()
  let admin: string
  let fieldA: string
  let fieldB: string
  let image: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    fieldA = (await h.request('POST', '/api/field', { token: admin, body: { name: 'Coppia di serraggio', type: 'number', mandatory: true } })).body.detail._key
    fieldB = (await h.request('POST', '/api/field', { token: admin, body: { name: 'Esito visivo', type: 'ternary' } })).body.detail._key
    const form = new FormData()
    form.append('file', new File([new Uint8Array(pngBytes(3, 3))], 'schema.png'))
    image = (await h.request('POST', '/api/media/create', { token: admin, body: form })).body.detail._key
  })

  const create = (body: unknown, token = admin) => h.request('POST', '/api/operation', { token, body })

  test('create with default steps; keys given to new steps; read back by list and key', async () => {
    const res = await create({
      name: '  Montaggio  ',
      default_phase_steps: [
        { type: 'instruction', title: 'Prepara i componenti', text: 'Riga 1\nRiga 2', media: [image, image] },
        { type: 'form', title: 'Controllo', fields: [fieldA, fieldB], print_templates: ['tpl-1'] },
      ],
    })
    expect(res.status).toBe(201)
    const op = res.body.detail
    expect(op._key).toMatch(/^[0-9a-f-]{36}$/)
    expect(op.name).toBe('Montaggio')
    expect(op.default_phase_steps).toEqual([
      { _key: expect.any(String), type: 'instruction', title: 'Prepara i componenti', text: 'Riga 1\nRiga 2', media: [image], fields: [], print_templates: [], signature: null },
      { _key: expect.any(String), type: 'form', title: 'Controllo', text: '', media: [], fields: [fieldA, fieldB], print_templates: ['tpl-1'], signature: null },
    ])
    expect(op.default_phase_steps[0]._key).not.toBe(op.default_phase_steps[1]._key)
    const list = await h.request('GET', '/api/operation', { token: admin })
    expect(list.body.detail.map((o: { name: string }) => o.name)).toContain('Montaggio')
    const one = await h.request('GET', `/api/operation/${op._key}`, { token: admin })
    expect(one.body.detail).toEqual(op)
    const [event] = await eventsOf(h, 'OPERATION_CREATED')
    expect(event).toMatchObject({ subject_type: 'operation', subject_key: op._key, data: { name: 'Montaggio', steps: 2 } })
    expect(event!.user_id).toBeTruthy()
    expect(event!.session_id).toBeTruthy()
  })

  test('name required and unique whatever the case ("operation name already in use")', async () => {
    const before = [await countOf(h, 'operations'), await countOf(h, 'events')]
    const blank = await create({ name: '   ' })
    expect(blank.status).toBe(400)
    expect(blank.body.detail).toMatchObject({ code: 'OPERATION_NAME_REQUIRED', message: 'operation name required' })
    expect((await create({})).status).toBe(400)
    const dup = await create({ name: 'MONTAGGIO' })
    expect(dup.status).toBe(409)
    expect(dup.body.detail).toEqual({ code: 'OPERATION_NAME_TAKEN', message: 'operation name already in use' })
    expect([await countOf(h, 'operations'), await countOf(h, 'events')]).toEqual(before)

    const other = (await create({ name: 'Collaudo' })).body.detail
    const rename = await h.request('PATCH', `/api/operation/${other._key}`, { token: admin, body: { name: 'montaggio' } })
    expect(rename.status).toBe(409)
    expect(rename.body.detail.code).toBe('OPERATION_NAME_TAKEN')
    const recase = await h.request('PATCH', `/api/operation/${other._key}`, { token: admin, body: { name: 'COLLAUDO' } })
    expect(recase.status).toBe(200)
    expect(recase.body.detail.name).toBe('COLLAUDO')
  })

  test('step rules: form steps need a field, instruction steps carry none, references must exist', async () => {
    const before = [await countOf(h, 'operations'), await countOf(h, 'events')]
    const cases: [unknown[], number, string, string?][] = [
      [[{ type: 'instruction' }, { type: 'form', title: 'Vuoto' }], 400, 'STEP_FIELDS_REQUIRED', 'form step 2 needs at least one field'],
      [[{ type: 'form', fields: [] }], 400, 'STEP_FIELDS_REQUIRED'],
      [[{ type: 'instruction', fields: [fieldA] }], 400, 'INVALID_INPUT', 'steps.0.fields: instruction step 1 cannot have form fields'],
      [[{ type: 'form', fields: [crypto.randomUUID()] }], 400, 'UNKNOWN_FIELD'],
      [[{ type: 'instruction', media: [crypto.randomUUID()] }], 400, 'UNKNOWN_MEDIA'],
      [[{ type: 'instruction', media: ['../../etc/passwd'] }], 400, 'INVALID_INPUT'],
      [[{ _key: 'a', type: 'instruction' }, { _key: 'a', type: 'instruction' }], 400, 'INVALID_INPUT'],
      [[{ type: 'note' }], 400, 'INVALID_INPUT'],
      [[{ type: 'instruction', text: 'x'.repeat(20_001) }], 400, 'INVALID_INPUT'],
    ]
    for (const [steps, status, code, message] of cases) {
      const res = await create({ name: `Prova ${code}`, default_phase_steps: steps })
      expect({ steps, status: res.status, code: res.body.detail.code }).toEqual({ steps, status, code })
      if (message) expect(res.body.detail.message).toBe(message)
    }
    expect([await countOf(h, 'operations'), await countOf(h, 'events')]).toEqual(before)
  })

  test('patch replaces the ordered steps (reorder, edit, remove) and records what changed', async () => {
    const op = (await create({ name: 'Imballaggio', default_phase_steps: [{ type: 'instruction', title: 'Uno' }, { type: 'instruction', title: 'Due' }] })).body.detail
    const [one, two] = op.default_phase_steps
    const res = await h.request('PATCH', `/api/operation/${op._key}`, {
      token: admin,
      body: { default_phase_steps: [{ ...two, text: 'Nuovo testo' }, one, { type: 'form', title: 'Tre', fields: [fieldB] }] },
    })
    expect(res.status).toBe(200)
    const steps = res.body.detail.default_phase_steps
    expect(steps.map((s: { title: string }) => s.title)).toEqual(['Due', 'Uno', 'Tre'])
    expect(steps[0]).toMatchObject({ _key: two._key, text: 'Nuovo testo' })
    expect(steps[1]._key).toBe(one._key)
    const updated = (await eventsOf(h, 'OPERATION_UPDATED')).filter((e) => e.subject_key === op._key)
    expect(updated).toHaveLength(1)
    expect(updated[0]!.data).toMatchObject({ changed: ['default_phase_steps'], name: 'Imballaggio' })

    // The same content again changes nothing and records nothing.
    const same = await h.request('PATCH', `/api/operation/${op._key}`, { token: admin, body: { name: 'Imballaggio', default_phase_steps: steps } })
    expect(same.status).toBe(200)
    expect((await eventsOf(h, 'OPERATION_UPDATED')).filter((e) => e.subject_key === op._key)).toHaveLength(1)

    // Refused patches leave the operation as it was.
    const bad = await h.request('PATCH', `/api/operation/${op._key}`, { token: admin, body: { name: 'Altro nome', default_phase_steps: [{ type: 'form' }] } })
    expect(bad.status).toBe(400)
    expect((await h.request('GET', `/api/operation/${op._key}`, { token: admin })).body.detail).toEqual(res.body.detail)
  })

  test('archived fields cannot be added to steps, but steps that already use them keep them', async () => {
    const field = (await h.request('POST', '/api/field', { token: admin, body: { name: 'Lotto fornitore', type: 'text' } })).body.detail._key
    const op = (await create({ name: 'Ricevimento', default_phase_steps: [{ type: 'form', fields: [field] }] })).body.detail
    const archived = await h.request('DELETE', `/api/field/${field}`, { token: admin })
    expect(archived.body.detail).toEqual({ _key: field, deleted: false, archived: true })
    const keep = await h.request('PATCH', `/api/operation/${op._key}`, {
      token: admin,
      body: { default_phase_steps: [...op.default_phase_steps, { type: 'instruction', title: 'Nuova' }] },
    })
    expect(keep.status).toBe(200)
    const add = await create({ name: 'Ricevimento 2', default_phase_steps: [{ type: 'form', fields: [field] }] })
    expect(add.status).toBe(400)
    expect(add.body.detail.code).toBe('FIELD_ARCHIVED')
    expect(add.body.detail.message).toBe('archived form field: Lotto fornitore')
  })

  test('delete: unused operations go, with an event; unknown keys are 404', async () => {
    const op = (await create({ name: 'Da eliminare' })).body.detail
    const res = await h.request('DELETE', `/api/operation/${op._key}`, { token: admin })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ _key: op._key })
    expect((await h.request('GET', `/api/operation/${op._key}`, { token: admin })).status).toBe(404)
    expect((await eventsOf(h, 'OPERATION_DELETED')).map((e) => e.data)).toContainEqual({ name: 'Da eliminare' })
    expect((await h.request('DELETE', `/api/operation/${op._key}`, { token: admin })).status).toBe(404)
    expect((await h.request('DELETE', '/api/operation/not-a-key', { token: admin })).status).toBe(404)
    expect((await h.request('PATCH', '/api/operation/not-a-key', { token: admin, body: { name: 'x' } })).status).toBe(404)
  })

  test('an operation used in a product process cannot be deleted (FK ON DELETE RESTRICT -> 409 OPERATION_IN_USE)', async () => {
    const op = (await create({ name: 'Saldatura' })).body.detail
    // Product phases (the product library) refer to operations like this.
    await sql`create table tmp_phase_refs (id serial primary key, operation_id uuid not null references operations(id) on delete restrict)`.execute(h.svc.db)
    await sql`insert into tmp_phase_refs (operation_id) values (${op._key})`.execute(h.svc.db)
    const before = await countOf(h, 'events')
    const res = await h.request('DELETE', `/api/operation/${op._key}`, { token: admin })
    expect(res.status).toBe(409)
    expect(res.body.detail).toEqual({
      code: 'OPERATION_IN_USE',
      message: 'cannot delete: the operation is used in product processes; contact the administrator',
    })
    expect((await h.request('GET', `/api/operation/${op._key}`, { token: admin })).status).toBe(200)
    expect(await countOf(h, 'events')).toBe(before)
    await sql`drop table tmp_phase_refs`.execute(h.svc.db)
  })

  test('the admin list (tRPC): search, sort, paging', async () => {
    const list = async (input: unknown) => {
      const res = await h.request('GET', `/api/trpc/operations.list?input=${encodeURIComponent(JSON.stringify(input))}`, { token: admin })
      expect(res.status).toBe(200)
      return res.body.result.data as { rows: { name: string }[]; total: number }
    }
    const all = await list({})
    expect(all.rows.map((r) => r.name)).toEqual([...all.rows.map((r) => r.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    expect((await list({ search: 'MONT' })).rows.map((r) => r.name)).toEqual(['Montaggio'])
    expect((await list({ search: '%' })).total).toBe(0)
    const desc = await list({ sort: 'name', desc: true })
    expect(desc.rows[0]!.name).toBe(all.rows.at(-1)!.name)
    const page = await list({ page: 2, page_size: 2 })
    expect(page.total).toBe(all.total)
    expect(page.rows.map((r) => r.name)).toEqual(all.rows.slice(2, 4).map((r) => r.name))
    const bySteps = await list({ sort: 'steps', desc: true })
    expect(bySteps.rows[0]!.name).toBe('Imballaggio')
  })

  test('library and production read operations; only admins change them', async () => {
    const library = await userWithScope(h, 'lib', 'library')
    const production = await userWithScope(h, 'prod', 'production')
    const operator = await userWithScope(h, 'op', 'operator')
    expect((await h.request('GET', '/api/operation', { token: library.token })).status).toBe(200)
    expect((await h.request('GET', '/api/operation', { token: production.token })).status).toBe(200)
    expect((await h.request('GET', '/api/operation', { token: operator.token })).status).toBe(403)
    expect((await h.request('GET', '/api/operation')).status).toBe(401)
    expect((await create({ name: 'Non mia' }, library.token)).status).toBe(403)
  })
})
