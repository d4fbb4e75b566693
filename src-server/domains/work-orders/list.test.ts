import { testRevisionOf } from '../../test/revisions'
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeProduct } from './test-fixtures'

type Row = { _key: string; code: string; product_code: string; status: string; late: boolean; critical: boolean; due_by: string | null; progress: number; archived_at: number | null }

describe('work order list: search, filters, paging (server side)', () => {
  const h = useHarness()
  let prod: { key: string; token: string }
  const wo: Record<string, { _key: string; code: string }> = {}
  let pump: string
  let valve: string

  const list = async (qs = '') => {
    const res = await h.request('GET', `/api/work-order${qs ? `?${qs}` : ''}`, { token: prod.token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.detail as { rows: Row[]; total: number }
  }
  const codes = async (qs = '') => (await list(qs)).rows.map((r) => r.code)

  beforeAll(async () => {
    prod = await userWithScope(h, 'planner', 'production')
    pump = (await makeProduct(h.svc.db, { code: 'PMP-10', description: 'Pompa centrifuga', phases: ['Montaggio', 'Collaudo'] })).key
    valve = (await makeProduct(h.svc.db, { code: 'VLV-20', description: 'Valvola a sfera', phases: ['Assemblaggio valvola'] })).key
    const mk = async (name: string, body: Record<string, unknown>) => {
      const res = await h.request('POST', '/api/work-order', { token: prod.token, body })
      expect(res.status).toBe(201)
      wo[name] = res.body.detail
    }
    // Today is 2026/01/05 (fake clock).
    await mk('late', { product_key: pump, quantity: 10, start_from: '2025/12/20', due_by: '2026/01/02', line: 'Linea A' })
    await mk('today', { product_key: pump, quantity: 10, start_from: '2026/01/05', due_by: '2026/01/05', line: 'Linea B' })
    await mk('future', { product_key: valve, quantity: 4, start_from: '2026/01/10', due_by: '2026/02/01', line: 'Linea A' })
    await mk('nodate', { product_key: valve, quantity: 2 })
    await mk('lateClosed', { product_key: valve, quantity: 2, due_by: '2025/12/01' })
    await h.request('PATCH', `/api/work-order/${wo.lateClosed!._key}`, { token: prod.token, body: { status: 'closed' } })
    await h.svc.db.updateTable('work_orders').set({ critical: true }).where('id', '=', wo.future!._key).execute()
    await h.svc.db.updateTable('work_orders').set({ completed_qt: 5 }).where('id', '=', wo.today!._key).execute()
  })

  test('queue order by default, with the computed columns', async () => {
    const { rows, total } = await list()
    expect(total).toBe(5)
    expect(rows.map((r) => r.code)).toEqual(['late', 'today', 'future', 'nodate', 'lateClosed'].map((n) => wo[n]!.code))
    const byName = (n: string) => rows.find((r) => r._key === wo[n]!._key)!
    expect(byName('late')).toMatchObject({ late: true, status: 'active', product_code: 'PMP-10', due_by: '2026/01/02' })
    expect(byName('today')).toMatchObject({ late: false, progress: 50, completed_qt: 5, remaining_qt: 5 })
    expect(byName('lateClosed')).toMatchObject({ late: false, status: 'closed' })
    expect(byName('future')).toMatchObject({ critical: true })
  })

  test('filters: status, late / on time, critical, product, date range; combined', async () => {
    expect(await codes('status=closed')).toEqual([wo.lateClosed!.code])
    expect(await codes('late=true')).toEqual([wo.late!.code])
    expect((await codes('late=false')).sort()).toEqual(['today', 'future', 'nodate', 'lateClosed'].map((n) => wo[n]!.code).sort())
    expect(await codes('critical=true')).toEqual([wo.future!.code])
    expect(await codes('critical=false&product_key=' + valve)).toEqual([wo.nodate!.code, wo.lateClosed!.code])
    expect(await codes('date_from=2026/01/01&date_to=2026/01/31')).toEqual([wo.late!.code, wo.today!.code])
    expect(await codes('date_field=start_from&date_from=2026/01/05')).toEqual([wo.today!.code, wo.future!.code])
    expect(await codes('date_to=2025/12/31')).toEqual([wo.lateClosed!.code])
    expect(await codes('status=active&late=false&product_key=' + pump)).toEqual([wo.today!.code])
    // ISO 8601 days are taken as well; a day that is not one is refused.
    expect(await codes('date_from=2026-01-01&date_to=2026-01-31')).toEqual([wo.late!.code, wo.today!.code])
    const bad = await h.request('GET', '/api/work-order?date_from=01/01/2026', { token: prod.token })
    expect(bad.status).toBe(400)
    expect((await h.request('GET', '/api/work-order?status=late', { token: prod.token })).status).toBe(400)
    expect((await h.request('GET', '/api/work-order?page_size=101', { token: prod.token })).status).toBe(400)
  })

  test('search: code, product code and description, line; every word must match; LIKE characters are literal', async () => {
    expect(await codes(`search=${wo.future!.code.toLowerCase()}`)).toEqual([wo.future!.code])
    expect(await codes('search=pompa')).toEqual([wo.late!.code, wo.today!.code])
    expect(await codes('search=VLV linea%20a')).toEqual([wo.future!.code])
    expect(await codes('search=' + encodeURIComponent('sfera linea'))).toEqual([wo.future!.code])
    expect(await codes('search=%25')).toEqual([])
    expect(await codes('search=_')).toEqual([])
  })

  test('sorting and bounded paging with a total', async () => {
    const p1 = await list('page_size=2')
    const p2 = await list('page_size=2&page=2')
    const p3 = await list('page_size=2&page=3')
    expect(p1.total).toBe(5)
    expect([...p1.rows, ...p2.rows, ...p3.rows].map((r) => r.code)).toEqual(await codes())
    expect(await codes('sort=due_by')).toEqual(['lateClosed', 'late', 'today', 'future', 'nodate'].map((n) => wo[n]!.code))
    expect(await codes('sort=due_by&dir=desc')).toEqual(['nodate', 'future', 'today', 'late', 'lateClosed'].map((n) => wo[n]!.code))
    expect((await codes('sort=progress&dir=desc'))[0]).toBe(wo.today!.code)
    expect(await codes('sort=code&dir=desc')).toEqual((await codes('sort=code')).reverse())
  })

  test('the archive is its own view, searchable, latest first', async () => {
    await h.request('POST', `/api/work-order/${wo.lateClosed!._key}/archive`, { token: prod.token })
    expect(await codes()).not.toContain(wo.lateClosed!.code)
    const archive = await list('archived=true')
    expect(archive.rows.map((r) => r.code)).toEqual([wo.lateClosed!.code])
    expect(archive.rows[0]!.archived_at).toBe(h.clock.now().getTime())
    expect(await codes('archived=true&search=vlv')).toEqual([wo.lateClosed!.code])
    expect(await codes('archived=true&search=pmp')).toEqual([])
    const trpc = await trpcCall(h, 'workOrders.list', 'query', { archived: true, search: 'sfera' }, { token: prod.token })
    expect(trpc.body.result.data.total).toBe(1)
  })

  test('GET work-order-search-opts: the first item holds products, wo_codes, phases', async () => {
    const res = await h.request('GET', '/api/work-order-search-opts', { token: prod.token })
    expect(res.status).toBe(200)
    expect(res.body.detail).toHaveLength(1)
    const [opts] = res.body.detail
    expect(opts.products).toEqual([
      { _key: pump, code: 'PMP-10', description: 'Pompa centrifuga' },
      { _key: valve, code: 'VLV-20', description: 'Valvola a sfera' },
    ])
    expect(opts.wo_codes).toEqual(['late', 'today', 'future', 'nodate'].map((n) => wo[n]!.code).sort())
    expect(opts.phases).toEqual(['Assemblaggio valvola', 'Collaudo', 'Montaggio'])
    const narrowed = (await h.request('GET', '/api/work-order-search-opts?search=valv', { token: prod.token })).body.detail[0]
    expect(narrowed.products.map((p: { code: string }) => p.code)).toEqual(['VLV-20'])
    expect(narrowed.phases).toEqual(['Assemblaggio valvola'])
    const archived = (await h.request('GET', '/api/work-order-search-opts?archived=true', { token: prod.token })).body.detail[0]
    expect(archived.wo_codes).toEqual([wo.lateClosed!.code])
  })

  test('the total of a whole view (no filter) follows every insert, archive, restore and delete, one row or many per statement', async () => {
    const db = h.svc.db
    const totals = async () => ({ active: (await list()).total, archived: (await list('archived=true')).total })
    const counted = async () => {
      const { rows } = await sql<{ active: number; archived: number }>`select
          count(*) filter (where archived_at is null)::int as active, count(*) filter (where archived_at is not null)::int as archived
        from work_orders`.execute(db)
      return rows[0]!
    }
    expect(await totals()).toEqual({ active: 4, archived: 1 })
    const revision = await testRevisionOf(db, valve)
    await sql`insert into work_orders (code, product_id, planned_qt, archived_at, revision_id)
      select 'CNT-' || i, ${valve}::uuid, 1, case when i % 3 = 0 then now() end, ${revision}::uuid from generate_series(1, 7) i`.execute(db)
    expect(await totals()).toEqual(await counted())
    expect(await totals()).toEqual({ active: 9, archived: 3 })
    // Archive some, restore others, and touch a column that is not the archive in the same statement.
    await sql`update work_orders set archived_at = case when archived_at is null then now() end, notes = 'x' where code in ('CNT-1', 'CNT-2', 'CNT-3')`.execute(db)
    await sql`update work_orders set archived_at = archived_at where code like 'CNT-%'`.execute(db)
    expect(await totals()).toEqual(await counted())
    await sql`delete from work_orders where code like 'CNT-%'`.execute(db)
    expect(await totals()).toEqual({ active: 4, archived: 1 })
  })
})
