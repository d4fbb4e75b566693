import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { adminToken, appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'
import { refreshWorkOrderProgress } from './progress'
import { makeProduct } from './test-fixtures'

const eventsOf = (h: Harness, type: string, subject?: string) => {
  let q = h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type)
  if (subject) q = q.where('subject_key', '=', subject)
  return q.orderBy('id').execute()
}

describe('work orders', () => {
  const h = useHarness()
  let admin: string
  let prod: { key: string; token: string }
  let op1: { key: string; token: string }
  let op2: { key: string; token: string }
  let lib: { key: string; token: string }
  let product: Awaited<ReturnType<typeof makeProduct>>
  let single: Awaited<ReturnType<typeof makeProduct>>

  const setUnassigned = async (allowed: boolean) => {
    const res = await h.request('PATCH', '/api/settings', { token: admin, body: { allow_unassigned_jobs: allowed } })
    expect(res.status).toBe(200)
  }
  const create = (body: Record<string, unknown>, token = prod.token) => h.request('POST', '/api/work-order', { token, body })
  const createOk = async (body: Record<string, unknown>) => {
    const res = await create(body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.detail
  }

  beforeAll(async () => {
    admin = await adminToken(h)
    prod = await userWithScope(h, 'planner', 'production')
    op1 = await userWithScope(h, 'op.one', 'operator')
    op2 = await userWithScope(h, 'op.two', 'operator quality')
    lib = await userWithScope(h, 'librarian', 'library')
    product = await makeProduct(h.svc.db, { code: 'GRP-100', description: 'Gruppo pompa', phases: ['Montaggio', 'Collaudo', 'Imballaggio'] })
    single = await makeProduct(h.svc.db, { code: 'KIT-7', description: 'Kit ricambi', phases: ['Confezionamento'] })
  })

  test('create: code, end of the queue, one material-flow row and one job per phase with the whole quantity and the steps', async () => {
    const first = await createOk({ product_key: single.key, quantity: 5 })
    const wo = await createOk({
      product_key: product.key,
      quantity: 40,
      start_from: '2026/01/10',
      due_by: '2026/01/20',
      line: ' Linea 2 ',
      notes: 'Urgente per cliente',
    })
    expect(first.code).toMatch(/^WO\d{6}$/)
    expect(Number(wo.code.slice(2))).toBe(Number(first.code.slice(2)) + 1)
    expect(wo).toMatchObject({
      product_key: product.key,
      product_code: 'GRP-100',
      product_description: 'Gruppo pompa',
      planned_qt: 40,
      completed_qt: 0,
      remaining_qt: 40,
      progress: 0,
      start_from: '2026/01/10',
      due_by: '2026/01/20',
      line: 'Linea 2',
      notes: 'Urgente per cliente',
      status: 'active',
      late: false,
      critical: false,
      archived_at: null,
      release_date: '2026/01/05',
    })
    expect(wo.sequence).toBeGreaterThan(first.sequence)
    expect(wo.phases.map((p: { name: string }) => p.name)).toEqual(['Montaggio', 'Collaudo', 'Imballaggio'])
    expect(wo.phases.map((p: { position: number }) => p.position)).toEqual([1, 2, 3])
    expect(wo.phases.map((p: { released_in_qt: number }) => p.released_in_qt)).toEqual([40, 0, 0])
    for (const phase of wo.phases) {
      expect(phase.jobs).toHaveLength(1)
      expect(phase.jobs[0]).toMatchObject({ quantity: 40, completed_qt: 0, active_qt: 0, status: 'queued', operator_key: null })
    }
    // Ready = material to work on: phase 1 has it, later phases wait for released pieces.
    expect(wo.phases.map((p: { jobs: { ready: boolean }[] }) => p.jobs[0]!.ready)).toEqual([true, false, false])
    const jobs = await h.svc.db.selectFrom('jobs').selectAll().where('work_order_id', '=', wo._key).orderBy('position').execute()
    expect(jobs.map((j) => j.step_sequence)).toEqual(product.phases.map((p) => p.steps.map((s) => ({ _key: s._key, type: s.type }))))
    expect(jobs.map((j) => j.position)).toEqual([1, 2, 3])

    const [event] = await eventsOf(h, 'WORK_ORDER_CREATED', wo._key)
    expect(event).toMatchObject({ subject_type: 'work_order', user_id: prod.key })
    expect(event!.session_id).toBeTruthy()
    expect(event!.data).toMatchObject({ code: wo.code, product_code: 'GRP-100', quantity: 40, due_by: '2026/01/20' })
    expect((event!.data as { jobs: unknown[] }).jobs).toHaveLength(3)

    // Read back by key and by code, REST and tRPC alike.
    const byKey = await h.request('GET', `/api/work-order/${wo._key}`, { token: prod.token })
    expect(byKey.body.detail).toEqual(wo)
    const byCode = await h.request('GET', `/api/work-order/${wo.code.toLowerCase()}`, { token: prod.token })
    expect(byCode.body.detail._key).toBe(wo._key)
    const trpc = await trpcCall(h, 'workOrders.get', 'query', { key: wo._key }, { token: prod.token })
    expect(trpc.body.result.data).toEqual(wo)
    expect((await h.request('GET', `/api/work-order/${MISSING_UUID}`, { token: prod.token })).status).toBe(404)
    expect((await h.request('GET', '/api/work-order/WO999999', { token: prod.token })).status).toBe(404)
    expect((await h.request('GET', '/api/work-order/nonsense', { token: prod.token })).status).toBe(404)
  })

  test('create refusals: product, quantity, dates; nothing is written', async () => {
    const inactive = await makeProduct(h.svc.db, { code: 'OLD-1', phases: ['Montaggio'], active: false })
    const trashed = await makeProduct(h.svc.db, { code: 'TRASH-1', phases: ['Montaggio'], trashed: true })
    const noProcess = await makeProduct(h.svc.db, { code: 'RAW-1' })
    const before = await tableCounts(h)
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ product_key: MISSING_UUID, quantity: 1 }, 400, 'UNKNOWN_PRODUCT', 'product not found'],
      [{ product_key: inactive.key, quantity: 1 }, 422, 'WORK_ORDER_PRODUCT_INACTIVE', 'the product is not active or is in the trash'],
      [{ product_key: trashed.key, quantity: 1 }, 422, 'WORK_ORDER_PRODUCT_INACTIVE'],
      [{ product_key: noProcess.key, quantity: 1 }, 422, 'WORK_ORDER_PRODUCT_NO_PROCESS', 'the product has no process: add at least one phase'],
      [{ product_key: product.key, quantity: 0 }, 400, 'INVALID_INPUT', 'quantity: quantity must be greater than 0'],
      [{ product_key: product.key, quantity: -3 }, 400, 'INVALID_INPUT'],
      [{ product_key: product.key, quantity: 2.5 }, 400, 'INVALID_INPUT', 'quantity: quantity must be a whole number'],
      [{ product_key: product.key }, 400, 'INVALID_INPUT'],
      [{ product_key: product.key, quantity: 1, due_by: '20/01/2026' }, 400, 'INVALID_INPUT', 'due_by: "20/01/2026" is not a date: dates are written YYYY/MM/DD or YYYY-MM-DD'],
      [{ product_key: product.key, quantity: 1, due_by: '2026/02/30' }, 400, 'INVALID_INPUT', 'due_by: 2026/02/30 is not a calendar date: February 2026 has 28 days'],
      [{ product_key: product.key, quantity: 1, start_from: '2026-13-01' }, 400, 'INVALID_INPUT', 'start_from: 2026-13-01 is not a calendar date: there is no month 13'],
      [{ product_key: product.key, quantity: 1, due_by: 20260120 }, 400, 'INVALID_INPUT', 'due_by: dates are written YYYY/MM/DD or YYYY-MM-DD'],
      [{ product_key: product.key, quantity: 1, start_from: '2026-02-10', due_by: '2026/02/09' }, 400, 'DUE_BEFORE_START', 'due_by must not be before start_from'],
      [{ product_key: product.key, quantity: 1, qunatity: 2 }, 400, 'INVALID_INPUT', 'qunatity: unknown key (known keys here: product_key, quantity, start_from, due_by, line, notes, operator_key, phase_operators)'],
      [{ product_key: product.key, quantity: 1, start_from: '2026/02/10', due_by: '2026/02/09' }, 400, 'DUE_BEFORE_START', 'due_by must not be before start_from'],
      [{ product_key: product.key, quantity: 1, operator_key: prod.key }, 400, 'WRONG_OPERATOR'],
      [{ product_key: product.key, quantity: 1, phase_operators: [{ phase_key: single.phases[0]!.key, operator_key: op1.key }] }, 400, 'UNKNOWN_PHASE'],
      [{ product_key: 'not-a-key', quantity: 1 }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code, message] of cases) {
      const res = await create(body)
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
      if (message) expect(res.body.detail.message).toBe(message)
    }
    expect(await tableCounts(h)).toEqual(before)
    // The same day is fine.
    await createOk({ product_key: single.key, quantity: 1, start_from: '2026/02/10', due_by: '2026/02/10' })
  })

  test('dates: YYYY/MM/DD (SPEC 5) and ISO YYYY-MM-DD are taken, any year 0001-9999; answers and filters use YYYY/MM/DD', async () => {
    const made = await create({ product_key: single.key, quantity: 1, start_from: '1999-12-01', due_by: '2024/02/29' })
    expect(made.status).toBe(201)
    expect(made.body.detail).toMatchObject({ start_from: '1999/12/01', due_by: '2024/02/29' })
    const patched = await h.request('PATCH', `/api/work-order/${made.body.detail._key}`, { token: prod.token, body: { due_by: '2025-01-31' } })
    expect({ status: patched.status, due_by: patched.body.detail?.due_by }).toEqual({ status: 200, due_by: '2025/01/31' })
    const codes = async (query: string) => {
      const res = await h.request('GET', `/api/work-order?${query}`, { token: prod.token })
      expect(res.status).toBe(200)
      return res.body.detail.rows.map((r: { _key: string }) => r._key)
    }
    expect(await codes('date_field=start_from&date_from=1999-12-01&date_to=1999/12/01')).toEqual([made.body.detail._key])
    const bad = await h.request('GET', '/api/work-order?date_field=due_by&date_from=2026/02/30', { token: prod.token })
    expect({ status: bad.status, message: bad.body.detail.message }).toEqual({ status: 400, message: 'date_from: 2026/02/30 is not a calendar date: February 2026 has 28 days' })
  })

  test('unassigned jobs per settings: allowed -> unassigned; not allowed -> an operator per phase or one for all (422 naming the phase)', async () => {
    await setUnassigned(false)
    try {
      const before = await tableCounts(h)
      const none = await create({ product_key: product.key, quantity: 3 })
      expect(none.status).toBe(422)
      expect(none.body.detail).toMatchObject({
        code: 'OPERATOR_REQUIRED',
        message: 'unassigned jobs are not allowed: choose an operator for phase 1 (Montaggio)',
        phase_key: product.phases[0]!.key,
        position: 1,
      })
      const partial = await create({ product_key: product.key, quantity: 3, phase_operators: [{ phase_key: product.phases[0]!.key, operator_key: op1.key }] })
      expect(partial.status).toBe(422)
      expect(partial.body.detail).toMatchObject({ code: 'OPERATOR_REQUIRED', phase_name: 'Collaudo', position: 2 })
      expect(await tableCounts(h)).toEqual(before)

      const all = await createOk({ product_key: product.key, quantity: 3, operator_key: op1.key })
      expect(all.phases.map((p: { jobs: { operator_key: string }[] }) => p.jobs[0]!.operator_key)).toEqual([op1.key, op1.key, op1.key])
      expect(all.phases[0].jobs[0].operator_name).toBe('op.one')

      const mixed = await createOk({
        product_key: product.key,
        quantity: 3,
        operator_key: op1.key,
        phase_operators: [{ phase_key: product.phases[1]!.key, operator_key: op2.key }],
      })
      expect(mixed.phases.map((p: { jobs: { operator_key: string }[] }) => p.jobs[0]!.operator_key)).toEqual([op1.key, op2.key, op1.key])
    } finally {
      await setUnassigned(true)
    }
    const free = await createOk({ product_key: product.key, quantity: 3, phase_operators: [{ phase_key: product.phases[2]!.key, operator_key: op2.key }] })
    expect(free.phases.map((p: { jobs: { operator_key: string | null }[] }) => p.jobs[0]!.operator_key)).toEqual([null, null, op2.key])

    // A disabled or archived operator is not a choice.
    await h.svc.db.updateTable('users').set({ enabled: false }).where('id', '=', op2.key).execute()
    const disabled = await create({ product_key: product.key, quantity: 3, operator_key: op2.key })
    expect(disabled.status).toBe(400)
    expect(disabled.body.detail).toMatchObject({ code: 'WRONG_OPERATOR', operator_keys: [op2.key] })
    await h.svc.db.updateTable('users').set({ enabled: true }).where('id', '=', op2.key).execute()
  })

  test('patch: planning fields with one event listing the changes; dates checked against the stored ones', async () => {
    const wo = await createOk({ product_key: single.key, quantity: 2, start_from: '2026/03/01', due_by: '2026/03/10' })
    const res = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { line: 'L4', due_by: '2026/03/12', notes: 'Nota' } })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ line: 'L4', due_by: '2026/03/12', notes: 'Nota', start_from: '2026/03/01' })
    const [event] = await eventsOf(h, 'WORK_ORDER_UPDATED', wo._key)
    expect(event!.data).toEqual({
      code: wo.code,
      changes: { line: { from: '', to: 'L4' }, due_by: { from: '2026/03/10', to: '2026/03/12' }, notes: { from: '', to: 'Nota' } },
    })
    // Nothing changed: no event.
    await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { line: 'L4' } })
    expect(await eventsOf(h, 'WORK_ORDER_UPDATED', wo._key)).toHaveLength(1)
    const bad = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { start_from: '2026/03/13' } })
    expect(bad.status).toBe(400)
    expect(appCode(bad.body)).toBe('DUE_BEFORE_START')
    // Clearing a date is allowed.
    const cleared = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { due_by: null, start_from: '2026/03/13' } })
    expect(cleared.body.detail).toMatchObject({ due_by: null, start_from: '2026/03/13' })
    const completed = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { status: 'completed' } })
    expect(completed.status).toBe(400)
    expect((await h.request('PATCH', `/api/work-order/${MISSING_UUID}`, { token: prod.token, body: { line: 'x' } })).status).toBe(404)
  })

  test('close by hand closes the open jobs (refused while a job runs); reopen opens again the jobs with pieces left', async () => {
    const wo = await createOk({ product_key: product.key, quantity: 10 })
    const [j1, j2, j3] = wo.phases.map((p: { jobs: { _key: string }[] }) => p.jobs[0]!._key)
    await h.svc.db.updateTable('jobs').set({ status: 'started', active: true, active_qt: 2, started_at: new Date() }).where('id', '=', j1).execute()
    const before = await tableCounts(h)
    const running = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { status: 'closed' } })
    expect(running.status).toBe(409)
    expect(running.body.detail).toMatchObject({ code: 'WORK_ORDER_JOBS_RUNNING', job_keys: [j1] })
    expect(await tableCounts(h)).toEqual(before)
    // Paused, with its batch done: 4 done of 10.
    await h.svc.db.updateTable('jobs').set({ status: 'paused', active: false, active_qt: 0, completed_qt: 10 }).where('id', '=', j1).execute()
    await h.svc.db.updateTable('jobs').set({ status: 'paused', completed_qt: 4, started_at: new Date() }).where('id', '=', j2).execute()
    const closed = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { status: 'closed', notes: 'Cliente ha annullato' } })
    expect(closed.status).toBe(200)
    expect(closed.body.detail.status).toBe('closed')
    expect(closed.body.detail.closed_at).toBe(h.clock.now().getTime())
    expect(closed.body.detail.phases.map((p: { jobs: { status: string }[] }) => p.jobs[0]!.status)).toEqual(['closed', 'closed', 'closed'])
    const [ev] = await eventsOf(h, 'WORK_ORDER_CLOSED', wo._key)
    expect((ev!.data as { jobs_closed: string[] }).jobs_closed.sort()).toEqual([j1, j2, j3].sort())
    // Closed: the quantity cannot change until reopened.
    const qty = await h.request('PATCH', `/api/work-order/${wo._key}/update-quantities`, { token: prod.token, body: { quantity: 12, phases: [] } })
    expect(qty.status).toBe(409)
    expect(appCode(qty.body)).toBe('WORK_ORDER_CLOSED')

    const reopened = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { status: 'active' } })
    expect(reopened.status).toBe(200)
    expect(reopened.body.detail).toMatchObject({ status: 'active', closed_at: null })
    // Phase 1 had done everything: it stays closed; phase 2 was started (paused), phase 3 never.
    expect(reopened.body.detail.phases.map((p: { jobs: { status: string }[] }) => p.jobs[0]!.status)).toEqual(['closed', 'paused', 'queued'])
    const [re] = await eventsOf(h, 'WORK_ORDER_REOPENED', wo._key)
    expect((re!.data as { jobs_reopened: string[] }).jobs_reopened.sort()).toEqual([j2, j3].sort())
  })

  test('completion from the last phase (refreshWorkOrderProgress), archive only when completed or closed, restore at the end of the queue', async () => {
    const wo = await createOk({ product_key: product.key, quantity: 6, due_by: '2026/01/02' })
    expect(wo.late).toBe(true)
    const notDone = await h.request('POST', `/api/work-order/${wo._key}/archive`, { token: prod.token })
    expect(notDone.status).toBe(409)
    expect(notDone.body.detail).toEqual({ code: 'WORK_ORDER_NOT_FINISHED', message: 'only completed or closed work orders can be archived' })

    // The operator side records progress in the last phase, then calls the refresh.
    const last = product.phases[2]!.key
    await h.svc.db.updateTable('work_order_phases').set({ completed_qt: 4 }).where('work_order_id', '=', wo._key).where('phase_id', '=', last).execute()
    let r = await h.svc.db.transaction().execute((trx) => refreshWorkOrderProgress(trx, wo._key))
    expect(r).toEqual({ completed_qt: 4, status: 'active', changed: true })
    let detail = (await h.request('GET', `/api/work-order/${wo._key}`, { token: prod.token })).body.detail
    expect(detail).toMatchObject({ completed_qt: 4, remaining_qt: 2, progress: 66, status: 'active', late: true })
    await h.svc.db.updateTable('work_order_phases').set({ completed_qt: 6 }).where('work_order_id', '=', wo._key).where('phase_id', '=', last).execute()
    r = await h.svc.db.transaction().execute((trx) => refreshWorkOrderProgress(trx, wo._key, { now: h.clock.now() }))
    expect(r).toEqual({ completed_qt: 6, status: 'completed', changed: true })
    detail = (await h.request('GET', `/api/work-order/${wo._key}`, { token: prod.token })).body.detail
    // Completed work orders are never late.
    expect(detail).toMatchObject({ completed_qt: 6, remaining_qt: 0, progress: 100, status: 'completed', late: false })
    expect(await eventsOf(h, 'WORK_ORDER_COMPLETED', wo._key)).toHaveLength(1)
    // Nothing new: nothing written.
    r = await h.svc.db.transaction().execute((trx) => refreshWorkOrderProgress(trx, wo._key))
    expect(r.changed).toBe(false)
    const closeCompleted = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { status: 'closed' } })
    expect(closeCompleted.status).toBe(409)
    expect(appCode(closeCompleted.body)).toBe('WORK_ORDER_STATUS_CHANGE')

    const archived = await h.request('POST', `/api/work-order/${wo._key}/archive`, { token: prod.token })
    expect(archived.status).toBe(200)
    expect(archived.body.detail.archived_at).toBe(h.clock.now().getTime())
    expect((await eventsOf(h, 'WORK_ORDER_ARCHIVED', wo._key))[0]!.data).toEqual({ code: wo.code, status: 'completed' })
    const again = await h.request('POST', `/api/work-order/${wo._key}/archive`, { token: prod.token })
    expect(again.status).toBe(409)
    expect(appCode(again.body)).toBe('WORK_ORDER_ARCHIVED')
    // Leaves the queue and the active list; found in the archive.
    const queue = (await h.request('GET', '/api/queue/site/0', { token: prod.token })).body.detail
    expect(queue.work_orders.map((w: { _key: string }) => w._key)).not.toContain(wo._key)
    const active = (await h.request('GET', `/api/work-order?search=${wo.code}`, { token: prod.token })).body.detail
    expect(active.total).toBe(0)
    const archive = (await h.request('GET', `/api/work-order?archived=true&search=${wo.code}`, { token: prod.token })).body.detail
    expect(archive.rows.map((w: { _key: string }) => w._key)).toEqual([wo._key])
    // Archived ones are read-only.
    const patch = await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { notes: 'x' } })
    expect(patch.status).toBe(409)
    expect(appCode(patch.body)).toBe('WORK_ORDER_ARCHIVED')
    const qty = await h.request('PATCH', `/api/work-order/${wo._key}/update-quantities`, { token: prod.token, body: { quantity: 8, phases: [] } })
    expect(appCode(qty.body)).toBe('WORK_ORDER_ARCHIVED')

    const restored = await h.request('POST', `/api/work-order/${wo._key}/restore`, { token: prod.token })
    expect(restored.status).toBe(200)
    expect(restored.body.detail.archived_at).toBeNull()
    const queueAfter = (await h.request('GET', '/api/queue/site/0', { token: prod.token })).body.detail.work_orders
    expect(queueAfter.at(-1)._key).toBe(wo._key)
    expect(await eventsOf(h, 'WORK_ORDER_RESTORED', wo._key)).toHaveLength(1)
    const restoreAgain = await h.request('POST', `/api/work-order/${wo._key}/restore`, { token: prod.token })
    expect(appCode(restoreAgain.body)).toBe('WORK_ORDER_NOT_ARCHIVED')

    // A closed one can be archived too.
    const other = await createOk({ product_key: single.key, quantity: 1 })
    await h.request('PATCH', `/api/work-order/${other._key}`, { token: prod.token, body: { status: 'closed' } })
    expect((await h.request('POST', `/api/work-order/${other.code}/archive`, { token: prod.token })).status).toBe(200)
  })

  test('history: the work order and its jobs, newest first, with who did it', async () => {
    const wo = await createOk({ product_key: single.key, quantity: 2 })
    await h.request('PATCH', `/api/work-order/${wo._key}`, { token: prod.token, body: { line: 'L9' } })
    const job = wo.phases[0].jobs[0]._key
    await h.svc.db.insertInto('events').values({ event_type: 'JOB_STARTED', user_id: op1.key, subject_type: 'job', subject_key: job, data: '{}' }).execute()
    const res = await h.request('GET', `/api/work-order/${wo._key}/history`, { token: prod.token })
    expect(res.status).toBe(200)
    expect(res.body.detail.map((e: { event_type: string }) => e.event_type)).toEqual(['JOB_STARTED', 'WORK_ORDER_UPDATED', 'WORK_ORDER_CREATED'])
    expect(res.body.detail[0]).toMatchObject({ user_key: op1.key, user_name: 'op.one', subject_type: 'job', subject_key: job })
    expect(res.body.detail[2]).toMatchObject({ user_name: 'planner', data: { code: wo.code } })
  })

  test('permissions: production writes; readers read; operators read one work order only', async () => {
    const wo = await createOk({ product_key: single.key, quantity: 2 })
    expect((await create({ product_key: single.key, quantity: 1 }, lib.token)).status).toBe(403)
    expect((await create({ product_key: single.key, quantity: 1 }, op1.token)).status).toBe(403)
    const plainAdmin = await userWithScope(h, 'only.admin', 'admin')
    expect((await create({ product_key: single.key, quantity: 1 }, plainAdmin.token)).status).toBe(403)
    expect((await h.request('GET', `/api/work-order/${wo._key}`, { token: op1.token })).status).toBe(200)
    expect((await h.request('GET', '/api/work-order', { token: op1.token })).status).toBe(403)
    expect((await h.request('GET', '/api/work-order', { token: op2.token })).status).toBe(200) // quality
    expect((await h.request('GET', `/api/work-order/${wo._key}`, { token: lib.token })).status).toBe(403)
    expect((await h.request('PATCH', `/api/work-order/${wo._key}`, { token: op2.token, body: { notes: 'x' } })).status).toBe(403)
    expect((await h.request('PUT', '/api/queue', { token: op2.token, body: { type: 's', site_key: '0', work_orders: [] } })).status).toBe(403)
    expect((await h.request('GET', '/api/work-order')).status).toBe(401)
    const trpc = await trpcCall(h, 'workOrders.create', 'mutation', { product_key: single.key, quantity: 1 }, { token: op1.token })
    expect(trpc.status).toBe(403)
  })

  test('tRPC create and product choices (active products with a process, from 3 characters, first 100)', async () => {
    await makeProduct(h.svc.db, { code: 'GRP-200', description: 'Gruppo valvola', phases: ['Montaggio'], active: false })
    await makeProduct(h.svc.db, { code: 'GRP-300', description: 'Gruppo senza fasi' })
    const choices = async (search: string) =>
      (await trpcCall(h, 'workOrders.productChoices', 'query', { search }, { token: prod.token })).body.result.data as { code: string; phases: { _key: string; name: string; position: number }[] }[]
    expect(await choices('gr')).toEqual([])
    const grp = await choices('grp')
    expect(grp.map((p) => p.code)).toEqual(['GRP-100'])
    expect(grp[0]!.phases).toEqual([
      { _key: product.phases[0]!.key, name: 'Montaggio', position: 1 },
      { _key: product.phases[1]!.key, name: 'Collaudo', position: 2 },
      { _key: product.phases[2]!.key, name: 'Imballaggio', position: 3 },
    ])
    expect((await choices('pompa')).map((p) => p.code)).toEqual(['GRP-100'])
    const created = await trpcCall(h, 'workOrders.create', 'mutation', { product_key: product.key, quantity: 7, due_by: '2026/05/01' }, { token: prod.token })
    expect(created.status).toBe(200)
    expect(created.body.result.data).toMatchObject({ planned_qt: 7, due_by: '2026/05/01' })
    const refused = await trpcCall(h, 'workOrders.create', 'mutation', { product_key: product.key, quantity: 7, start_from: '2026/05/02', due_by: '2026/05/01' }, { token: prod.token })
    expect(refused.status).toBe(400)
    expect(appCode(refused.body)).toBe('DUE_BEFORE_START')
  })

  test('late and critical are computed against the clock and stored flags', async () => {
    const wo = await createOk({ product_key: single.key, quantity: 1, due_by: '2026/01/05' })
    expect(wo.late).toBe(false) // due today
    const yesterday = await createOk({ product_key: single.key, quantity: 1, due_by: '2026/01/04' })
    expect(yesterday.late).toBe(true)
    await h.request('PATCH', `/api/work-order/${yesterday._key}`, { token: prod.token, body: { status: 'closed' } })
    expect((await h.request('GET', `/api/work-order/${yesterday._key}`, { token: prod.token })).body.detail.late).toBe(false)
    await h.svc.db.updateTable('work_orders').set({ critical: true }).where('id', '=', wo._key).execute()
    expect((await h.request('GET', `/api/work-order/${wo._key}`, { token: prod.token })).body.detail.critical).toBe(true)
    await sql`update work_orders set critical = false where id = ${wo._key}`.execute(h.svc.db)
  })
})
