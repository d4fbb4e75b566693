import { beforeAll, describe, expect, test } from 'bun:test'
import { calendarDate, type FilterFacts, JOB_FILTERS, type JobFilter, matchesFilter } from '../../../src/domains/jobs/rules'
import { appCode, MISSING_UUID, trpcCall } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'
import { makeDepartment, makeProduct, makeUser, makeWorkOrder, type MadeWorkOrder, setJobState } from './test-fixtures'

/** Every job's facts as the pure rules read them, straight from the tables. */
async function facts(h: Harness): Promise<Map<string, FilterFacts & { archived: boolean }>> {
  const rows = await h.svc.db
    .selectFrom('jobs as j')
    .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
    .innerJoin('work_order_phases as wop', (join) => join.onRef('wop.work_order_id', '=', 'j.work_order_id').onRef('wop.phase_id', '=', 'j.phase_id'))
    .select([
      'j.id',
      'j.status',
      'j.active',
      'j.quantity',
      'j.completed_qt',
      'j.active_qt',
      'j.operator_id',
      'j.critical',
      'wo.critical as wo_critical',
      'wo.due_by',
      'wo.archived_at',
      'wop.released_in_qt',
      'wop.taken_qt',
    ])
    .execute()
  return new Map(
    rows.map((r) => [
      r.id,
      {
        status: r.status,
        active: r.active,
        quantity: r.quantity,
        completed_qt: r.completed_qt,
        active_qt: r.active_qt,
        operator_key: r.operator_id,
        critical: r.critical,
        work_order_critical: r.wo_critical,
        due_by: r.due_by,
        released_in_qt: r.released_in_qt,
        taken_qt: r.taken_qt,
        archived: r.archived_at !== null,
      },
    ]),
  )
}

describe('job list: filters, scope, paging, detail', () => {
  const h = useHarness()
  let production: string
  let operatorToken: string
  let deptA: string
  let deptB: string
  let op1: string
  let op2: string
  let wos: MadeWorkOrder[] = []
  let archivedWo: MadeWorkOrder
  let today: string

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner', 'production')).token
    operatorToken = (await userWithScope(h, 'reader.op', 'operator')).token
    today = calendarDate(h.clock.now())
    const db = h.svc.db
    deptA = await makeDepartment(db, 'ASM')
    deptB = await makeDepartment(db, 'COL')
    op1 = await makeUser(db, { username: 'mrossi', name: 'Marco', surname: 'Rossi', department_id: deptA })
    op2 = await makeUser(db, { username: 'gbianchi', name: 'Giulia', surname: 'Bianchi', department_id: deptB })
    const product = await makeProduct(db, { code: 'VALVOLA-10', phases: [{ name: 'Montaggio', department_id: deptA }, { name: 'Collaudo', department_id: deptB }] })
    const other = await makeProduct(db, { code: 'POMPA-20', phases: [{ name: 'Taglio', department_id: deptA }] })
    // A spread of states: queued, running, paused, closed; assigned or not; critical; late; ready or not.
    const yesterday = '2026-01-04'
    const tomorrow = '2026-01-06'
    wos = [
      await makeWorkOrder(db, product, { code: 'WO-A', quantity: 10, due_by: yesterday }),
      await makeWorkOrder(db, product, { code: 'WO-B', quantity: 6, due_by: tomorrow, critical: true }),
      await makeWorkOrder(db, other, { code: 'WO-C', quantity: 4, due_by: today }),
      await makeWorkOrder(db, product, { code: 'WO-D', quantity: 5 }),
    ]
    archivedWo = await makeWorkOrder(db, other, { code: 'WO-ARCH', quantity: 3, archived: true })
    const [a, b, c, d] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    // WO-A: phase 1 running with 3 done, 2 active, 2 released downstream; phase 2 paused with material.
    await setJobState(db, a.jobs[0]!, { operator: op1, completed: 3, active_qt: 2, running: true, released: 3 })
    await setJobState(db, a.jobs[1]!, { operator: op2, status: 'paused', completed: 1, released: 0 })
    // WO-B (critical): phase 1 closed, all released; phase 2 queued unassigned with material.
    await setJobState(db, b.jobs[0]!, { operator: op1, status: 'closed', completed: 6, released: 6 })
    // WO-C: one phase, queued, assigned, job critical.
    await setJobState(db, c.jobs[0]!, { operator: op2, critical: true })
    // WO-D: phase 1 started (paused) everything taken: not ready; phase 2 nothing released: not ready.
    await setJobState(db, d.jobs[0]!, { operator: op1, status: 'paused', completed: 2, active_qt: 3 })
    void archivedWo
  }, 60_000)

  const list = async (query: string, token = production) => {
    const res = await h.request('GET', `/api/job${query ? `?${query}` : ''}`, { token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.detail as { rows: ({ _key: string } & Record<string, any>)[]; next_cursor: string | null }
  }
  const keys = (page: { rows: { _key: string }[] }): (string | undefined)[] => page.rows.map((r) => r._key).sort()

  async function expected(filters: JobFilter[], opts: { includeClosed?: boolean } = {}) {
    const all = await facts(h)
    return [...all.entries()]
      .filter(([, f]) => !f.archived && (opts.includeClosed || f.status !== 'closed'))
      .filter(([, f]) => filters.every((x) => matchesFilter(x, f, today)))
      .map(([k]) => k)
      .sort()
  }

  test('without filters: open jobs of work orders not archived, in site queue order', async () => {
    const page = await list('')
    const [a, b, c, d] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    // WO-B phase 1 is closed; the archived work order is left out.
    expect(page.rows.map((r): string | undefined => r._key)).toEqual([a.jobs[0], a.jobs[1], b.jobs[1], c.jobs[0], d.jobs[0], d.jobs[1]])
    expect(page.next_cursor).toBeNull()
    const first = page.rows[0]!
    expect(first).toMatchObject({
      status: 'started',
      active: true,
      quantity: 10,
      completed_qt: 3,
      active_qt: 2,
      remaining_qt: 5,
      available_qt: 5,
      ready: true,
      critical: false,
      late: true,
      operator_key: op1,
      operator_username: 'mrossi',
      operator_name: 'Marco Rossi',
      work_order_code: 'WO-A',
      due_by: '2026-01-04',
      product_code: 'VALVOLA-10',
      revision_number: 1,
      phase_name: 'Montaggio',
      phase_position: 1,
      department_key: deptA,
      department_name: 'Reparto ASM',
    })
    // Phase 2 of WO-A: 3 released, 1 taken (done): 2 available.
    expect(page.rows[1]).toMatchObject({ status: 'paused', ready: true, available_qt: 2, remaining_qt: 9, phase_name: 'Collaudo' })
    // The work order's criticality shows on its jobs.
    expect(page.rows[2]).toMatchObject({ critical: true, ready: true, available_qt: 6, late: false, operator_key: null })
  })

  test('each filter alone matches the rule in rules.ts, and says what it should', async () => {
    for (const filter of JOB_FILTERS) {
      const got = keys(await list(`filters=${filter}`))
      expect({ filter, got }).toEqual({ filter, got: await expected([filter]) })
    }
    const [a, b, c, d] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    const sorted = (xs: (string | undefined)[]) => [...xs].sort()
    expect(keys(await list('filters=active'))).toEqual(sorted([a.jobs[0]]))
    expect(keys(await list('filters=idle'))).toEqual(sorted([a.jobs[1], b.jobs[1], c.jobs[0], d.jobs[0], d.jobs[1]]))
    expect(keys(await list('filters=queued'))).toEqual(sorted([b.jobs[1], c.jobs[0], d.jobs[1]]))
    expect(keys(await list('filters=started'))).toEqual(sorted([a.jobs[0], a.jobs[1], d.jobs[0]]))
    expect(keys(await list('filters=unassigned'))).toEqual(sorted([b.jobs[1], d.jobs[1]]))
    expect(keys(await list('filters=critical'))).toEqual(sorted([b.jobs[1], c.jobs[0]]))
    expect(keys(await list('filters=late'))).toEqual(sorted([a.jobs[0], a.jobs[1]]))
    // Due today is on time.
    expect(keys(await list('filters=on_time'))).toEqual(sorted([b.jobs[1], c.jobs[0], d.jobs[0], d.jobs[1]]))
    expect(keys(await list('filters=ready'))).toEqual(sorted([a.jobs[0], a.jobs[1], b.jobs[1], c.jobs[0]]))
    expect(keys(await list('filters=not_ready'))).toEqual(sorted([d.jobs[0], d.jobs[1]]))
  })

  test('filters combine with AND, also with closed jobs included', async () => {
    const combos: JobFilter[][] = [
      ['assigned', 'ready'],
      ['late', 'started'],
      ['critical', 'unassigned'],
      ['idle', 'not_ready', 'assigned'],
      ['queued', 'on_time', 'not_critical'],
      ['assigned', 'unassigned'],
      ['active', 'idle'],
      ['ready', 'not_ready'],
    ]
    for (const combo of combos) {
      const got = keys(await list(`filters=${combo.join(',')}`))
      expect({ combo, got }).toEqual({ combo, got: await expected(combo) })
    }
    expect(keys(await list('filters=assigned,unassigned'))).toEqual([])
    const closedIncluded = keys(await list('filters=assigned,on_time&include_closed=true'))
    expect(closedIncluded).toEqual(await expected(['assigned', 'on_time'], { includeClosed: true }))
    expect(closedIncluded).toContain(wos[1]!.jobs[0]!)
    // Every pair of filters agrees with the pure rules (tRPC, the client's way in).
    for (const x of JOB_FILTERS) {
      for (const y of JOB_FILTERS) {
        if (x >= y) continue
        const res = await trpcCall(h, 'jobs.list', 'query', { filters: [x, y], include_closed: true }, { token: production })
        const got = (res.body.result.data.rows as { _key: string }[]).map((r) => r._key).sort()
        expect({ x, y, got }).toEqual({ x, y, got: await expected([x, y], { includeClosed: true }) })
      }
    }
  })

  test('department, operator, work order, phase, product and search narrow the list', async () => {
    const [a, b, c, d] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    const sorted = (xs: (string | undefined)[]) => [...xs].sort()
    expect(keys(await list(`department_key=${deptB}`))).toEqual(sorted([a.jobs[1], b.jobs[1], d.jobs[1]]))
    expect(keys(await list(`operator_key=${op1}`))).toEqual(sorted([a.jobs[0], d.jobs[0]]))
    expect(keys(await list(`operator_key=${op1}&filters=active`))).toEqual(sorted([a.jobs[0]]))
    // Naming a work order lists its jobs whatever their state.
    expect(keys(await list(`work_order_key=${b.id}`))).toEqual(sorted(b.jobs))
    expect(keys(await list(`work_order_key=${archivedWo.id}`))).toEqual(sorted(archivedWo.jobs))
    expect(keys(await list(`phase_key=${a.phases[1]}`))).toEqual(sorted([a.jobs[1], b.jobs[1], d.jobs[1]]))
    expect(keys(await list(`product_key=${c.productId}`))).toEqual(sorted([c.jobs[0]]))
    expect(keys(await list('search=wo-c'))).toEqual(sorted([c.jobs[0]]))
    expect(keys(await list('search=collaudo'))).toEqual(sorted([a.jobs[1], b.jobs[1], d.jobs[1]]))
    expect(keys(await list('search=rossi'))).toEqual(sorted([a.jobs[0], d.jobs[0]]))
    expect(keys(await list('search=rossi%20wo-d'))).toEqual(sorted([d.jobs[0]]))
    expect(keys(await list(`search=${encodeURIComponent('100%')}`))).toEqual([])
    expect(keys(await list(`department_key=${deptA}&filters=not_ready`))).toEqual(sorted([d.jobs[0]]))
  })

  test('keyset pages cover every row once, in order; the page size is capped', async () => {
    const all = (await list('include_closed=true&limit=200')).rows.map((r) => r._key)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { rows: { _key: string }[]; next_cursor: string | null } = await list(`include_closed=true&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.rows.length).toBeLessThanOrEqual(2)
      seen.push(...page.rows.map((r) => r._key))
      cursor = page.next_cursor
      pages++
    } while (cursor && pages < 20)
    expect(seen).toEqual(all)
    expect(pages).toBe(Math.ceil(all.length / 2))
    for (const bad of ['limit=201', 'limit=0', 'limit=x', 'cursor=abc', 'cursor=%2F%2F', 'filters=late,nope', `department_key=x`]) {
      const res = await h.request('GET', `/api/job?${bad}`, { token: production })
      expect({ bad, status: res.status, code: appCode(res.body) }).toEqual({ bad, status: 400, code: 'INVALID_INPUT' })
    }
  })

  test("jobs keep their work order's place in the site queue (jobs.wo_sequence); an operator's list follows it", async () => {
    const [a, , , d] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    const before = (await list(`operator_key=${op1}`)).rows.map((r): string | undefined => r._key)
    expect(before).toEqual([a.jobs[0], d.jobs[0]])
    // The work order service moves WO-D to the front of the queue: its jobs follow.
    const { sequence } = await h.svc.db.selectFrom('work_orders').select('sequence').where('id', '=', a.id).executeTakeFirstOrThrow()
    await h.svc.db.updateTable('work_orders').set({ sequence: sequence - 1 }).where('id', '=', d.id).execute()
    const mismatched = await h.svc.db
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select('j.id')
      .whereRef('j.wo_sequence', '<>', 'wo.sequence')
      .execute()
    expect(mismatched).toEqual([])
    const page1 = await list(`operator_key=${op1}&limit=1`)
    expect(page1.rows.map((r): string | undefined => r._key)).toEqual([d.jobs[0]])
    const page2 = await list(`operator_key=${op1}&limit=1&cursor=${page1.next_cursor}`)
    expect(page2.rows.map((r): string | undefined => r._key)).toEqual([a.jobs[0]])
    expect(page2.next_cursor).toBeNull()
    await h.svc.db.updateTable('work_orders').set({ sequence: sequence + 100 }).where('id', '=', d.id).execute()
  })

  test('GET job/{id}: the detail with phase parameters, steps, work order, product and material', async () => {
    const a = wos[0]!
    const res = await h.request('GET', `/api/job/${a.jobs[1]}`, { token: production })
    expect(res.status).toBe(200)
    const detail = res.body.detail
    expect(detail).toMatchObject({
      _key: a.jobs[1],
      status: 'paused',
      has_traceability: false,
      phase: { _key: a.phases[1], name: 'Collaudo', position: 2, department_key: deptB },
      work_order: { _key: a.id, code: 'WO-A', planned_qt: 10, due_by: '2026-01-04', status: 'active', critical: false },
      product: { code: 'VALVOLA-10' },
      material: { released_in_qt: 3, taken_qt: 1, completed_qt: 1, released_out_qt: 0, available_qt: 2 },
    })
    expect(detail.phase.parameters.release_style).toBe('continuous')
    expect(detail.step_sequence).toHaveLength(2)
    expect(detail.step_sequence[0]).toMatchObject({ type: 'instruction' })
    expect((await h.request('GET', `/api/job/${MISSING_UUID}`, { token: production })).body.detail.code).toBe('UNKNOWN_JOB')
    expect((await h.request('GET', `/api/job/${MISSING_UUID}`, { token: production })).status).toBe(404)
    expect((await h.request('GET', '/api/job/not-a-key', { token: production })).status).toBe(400)
    const viaTrpc = await trpcCall(h, 'jobs.get', 'query', { key: a.jobs[1] }, { token: production })
    expect(viaTrpc.body.result.data.material.available_qt).toBe(2)
  })

  test('operators read the list and jobs; other permissions are refused', async () => {
    expect((await h.request('GET', '/api/job', { token: operatorToken })).status).toBe(200)
    expect((await h.request('GET', `/api/job/${wos[0]!.jobs[0]}`, { token: operatorToken })).status).toBe(200)
    const quality = (await userWithScope(h, 'quality.only', 'quality')).token
    expect(appCode((await h.request('GET', '/api/job', { token: quality })).body)).toBe('NOT_AUTHORISED')
    expect((await h.request('GET', '/api/job')).status).toBe(401)
  })
})
