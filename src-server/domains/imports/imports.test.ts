import { beforeAll, describe, expect, test } from 'bun:test'
import { csvRows, parseCsv } from '../../../src/domains/flows/imports'
import { adminToken, quickUser, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeProduct } from '../work-orders/test-fixtures'

describe('CSV reading', () => {
  test('quotes, doubled quotes, separators and line breaks inside quotes, CRLF, BOM, semicolons', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","he said ""hi"""\r\n"two\nlines",z\n')).toEqual({
      ok: true,
      records: [
        ['a', 'b'],
        ['x, y', 'he said "hi"'],
        ['two\nlines', 'z'],
      ],
    })
    expect(csvRows('product_code;quantity;notes\nP1;1.000;"a;b"\n\n')).toEqual({ ok: true, rows: [{ product_code: 'P1', quantity: '1.000', notes: 'a;b' }] })
    expect(parseCsv('a,"open\n')).toMatchObject({ ok: false, line: 2 })
    expect(csvRows('product_code,qty\nP,1')).toMatchObject({ ok: false, message: expect.stringContaining('qty') })
  })
})

describe('work order imports (REST JSON and CSV with Idempotency-Key, preview, tRPC upload)', () => {
  const h = useHarness()
  let token: string
  let operator: { key: string; token: string }
  const woCount = async () => Number((await h.svc.db.selectFrom('work_orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

  beforeAll(async () => {
    token = await adminToken(h)
    operator = await quickUser(h, 'imp-operator', 'operator')
    await makeProduct(h.svc.db, { code: 'IMP-PUMP', phases: ['Montaggio', 'Collaudo'] })
    await makeProduct(h.svc.db, { code: 'IMP-VALVE', phases: ['Montaggio'] })
    await makeProduct(h.svc.db, { code: 'IMP-NOPROC', phases: [] })
  })

  const rows = [
    { product_code: 'IMP-PUMP', quantity: 10, due_by: '2026-12-24', line: 'L1', operator_username: 'imp-operator' },
    { product_code: 'imp-valve', quantity: '1.000', start_from: '2026/12/01', operator_username: 'IMP-OPERATOR', notes: 'from the ERP' },
  ]

  test('JSON import: created through the work-orders service; a retry with the same key creates nothing twice', async () => {
    const before = await woCount()
    const first = await h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-batch-0001' }, body: { rows } })
    expect(first.status).toBe(201)
    expect(first.body.detail.replayed).toBe(false)
    expect(first.body.detail.created).toHaveLength(2)
    expect(await woCount()).toBe(before + 2)
    const wo = await h.request('GET', `/api/work-order/${first.body.detail.created[1]._key}`, { token })
    expect(wo.body.detail).toMatchObject({ planned_qt: 1000, start_from: '2026/12/01', notes: 'from the ERP' })
    // The same work order event as the form writes (so flows and history see it).
    const ev = await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', first.body.detail.created[0]._key).execute()
    expect(ev.map((e) => e.event_type)).toContain('WORK_ORDER_CREATED')
    // The ERP retries after a lost answer: the first answer again, nothing new.
    const retry = await h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-batch-0001' }, body: { rows } })
    expect(retry.status).toBe(201)
    expect(retry.body.detail).toEqual({ ...first.body.detail, replayed: true })
    expect(await woCount()).toBe(before + 2)
    // The same key for other rows is refused.
    const other = await h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-batch-0001' }, body: { rows: rows.slice(0, 1) } })
    expect(other.status).toBe(409)
    expect(other.body.detail.code).toBe('IDEMPOTENCY_KEY_REUSED')
    // No key: 400 naming the header.
    const none = await h.request('POST', '/api/import/work-orders', { token, body: { rows } })
    expect(none.status).toBe(400)
    expect(none.body.detail.code).toBe('IDEMPOTENCY_KEY_REQUIRED')
    expect(await woCount()).toBe(before + 2)
  })

  test('two identical imports at the same time: one creates, the other answers the same (no duplicates)', async () => {
    const before = await woCount()
    const send = () => h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-concurrent-7' }, body: { rows } })
    const [a, b] = await Promise.all([send(), send()])
    expect([a.status, b.status]).toEqual([201, 201])
    expect(a.body.detail.created).toEqual(b.body.detail.created)
    expect([a.body.detail.replayed, b.body.detail.replayed].sort()).toEqual([false, true])
    expect(await woCount()).toBe(before + 2)
  })

  test('any bad row: 422 with every row\'s error and nothing created; the key can then be used with the fixed rows', async () => {
    const before = await woCount()
    const bad = [
      rows[0],
      { product_code: 'NOPE', quantity: 3 },
      { product_code: 'IMP-PUMP', quantity: '2,5', operator_username: 'imp-operator' },
      { product_code: 'IMP-PUMP', quantity: 1, operator_username: 'ghost' },
      { product_code: 'IMP-NOPROC', quantity: 1, operator_username: 'imp-operator' },
      { product_code: 'IMP-PUMP', quantity: 1, start_from: '2026/12/10', due_by: '2026/12/01', operator_username: 'imp-operator' },
      { product_code: 'IMP-PUMP', quantity: 1, colour: 'red' },
    ]
    const res = await h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-bad-1' }, body: { rows: bad } })
    expect(res.status).toBe(422)
    expect(res.body.detail.code).toBe('IMPORT_ROWS_INVALID')
    const byRow = (row: number) => res.body.detail.errors.filter((e: any) => e.row === row)
    expect(byRow(1)).toEqual([])
    expect(byRow(2)[0]).toMatchObject({ field: 'product_code', code: 'UNKNOWN_PRODUCT' })
    // The bad value and what is wrong with it, for a message in the reader's language.
    expect(byRow(3)[0]).toMatchObject({ field: 'quantity', value: '2,5', kind: 'integer' })
    expect(byRow(2)[0]).toMatchObject({ value: 'NOPE' })
    expect(byRow(4)[0]).toMatchObject({ field: 'operator_username', code: 'UNKNOWN_OPERATOR' })
    expect(byRow(5)[0]).toMatchObject({ code: 'WORK_ORDER_PRODUCT_NO_PROCESS' })
    expect(byRow(6)[0]).toMatchObject({ code: 'DUE_BEFORE_START' })
    expect(byRow(7)[0].message).toContain('colour')
    expect(await woCount()).toBe(before)
    const fixed = await h.request('POST', '/api/import/work-orders', { token, headers: { 'idempotency-key': 'erp-bad-1' }, body: { rows: [rows[0]] } })
    expect(fixed.status).toBe(201)
    expect(await woCount()).toBe(before + 1)
  })

  test('CSV over REST (multipart file, semicolons, quoted notes); preview writes nothing; operators may not import', async () => {
    const csv = 'product_code;quantity;due_by;line;notes;operator_username\r\nIMP-PUMP;0;2026/12/31;L2;"urgente; cliente ""Rossi"""\r\nIMP-VALVE;12;;;;imp-operator\r\n'
    const form = () => {
      const f = new FormData()
      f.append('file', new File([csv], 'ordini.csv', { type: 'text/csv' }))
      return f
    }
    const before = await woCount()
    const events = Number((await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const preview = await h.request('POST', '/api/import/work-orders/csv/preview', { token, body: form() })
    expect(preview.status).toBe(200)
    expect(preview.body.detail).toMatchObject({ valid: 1, invalid: 1 })
    expect(preview.body.detail.rows[0]).toMatchObject({ row: 1, product_code: 'IMP-PUMP', quantity: 0, due_by: '2026/12/31', errors: [{ field: 'quantity', value: '0' }] })
    expect(preview.body.detail.rows[1]).toMatchObject({ row: 2, quantity: 12, errors: [] })
    expect(await woCount()).toBe(before)
    expect(Number((await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(events)
    const refused = await h.request('POST', '/api/import/work-orders/csv', { token, headers: { 'idempotency-key': 'csv-1' }, body: form() })
    expect(refused.status).toBe(422)
    const fixedCsv = csv.replace('IMP-PUMP;0;', 'IMP-PUMP;5;')
    const f = new FormData()
    f.append('file', new File([fixedCsv], 'ordini.csv', { type: 'text/csv' }))
    const ok = await h.request('POST', '/api/import/work-orders/csv', { token, headers: { 'idempotency-key': 'csv-1' }, body: f })
    expect(ok.status).toBe(201)
    const wo = await h.request('GET', `/api/work-order/${ok.body.detail.created[0]._key}`, { token })
    expect(wo.body.detail.notes).toBe('urgente; cliente "Rossi"')
    const unreadable = new FormData()
    unreadable.append('file', new File(['product_code,quantity\n"P1,1\n'], 'x.csv'))
    const broken = await h.request('POST', '/api/import/work-orders/csv', { token, headers: { 'idempotency-key': 'csv-2' }, body: unreadable })
    expect(broken.status).toBe(400)
    expect(broken.body.detail.code).toBe('IMPORT_CSV_INVALID')
    expect((await h.request('POST', '/api/import/work-orders', { token: operator.token, headers: { 'idempotency-key': 'op-1' }, body: { rows } })).status).toBe(403)
    const openapi = await h.request('GET', '/api/openapi.json')
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/import/work-orders', '/import/work-orders/csv', '/import/work-orders/preview']))
  })

  test('tRPC (the upload screen): previewCsv then importCsv with the upload\'s key; a double click creates once', async () => {
    const csv = 'product_code,quantity,operator_username\nIMP-VALVE,3,imp-operator\n'
    const preview = await trpcCall(h, 'imports.previewCsv', 'mutation', { csv }, { token })
    expect(preview.status).toBe(200)
    const before = await woCount()
    const key = crypto.randomUUID()
    const first = await trpcCall(h, 'imports.importCsv', 'mutation', { csv, idempotency_key: key }, { token })
    const second = await trpcCall(h, 'imports.importCsv', 'mutation', { csv, idempotency_key: key }, { token })
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(await woCount()).toBe(before + 1)
    const empty = await trpcCall(h, 'imports.previewCsv', 'mutation', { csv: 'product_code,quantity\n' }, { token })
    expect(empty.status).toBe(422)
  })
})
