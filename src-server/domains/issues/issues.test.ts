import { beforeAll, describe, expect, test } from 'bun:test'
import { tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { actOnIssue, getIssue, updateIssue } from './service'
import { criticalMarks, type IssueWorld, issueEvents, makeIssueWorld, openIssue, refused } from './test-fixtures'
import { reshapeReleased } from '../../test/revisions'

/** The issue rules of the service: opening and its context, editing, every action and its guard, critical marks. */
describe('issues: opening, editing, actions, critical marks', () => {
  const h = useHarness()
  let w: IssueWorld
  beforeAll(async () => {
    w = await makeIssueWorld(h, 'svc')
  })
  const act = (key: string, action: Parameters<typeof actOnIssue>[3], who = w.quality) => actOnIssue(h.svc, who.actor, key, action)

  test('open: sequential codes, defaults from the type, opened now by the actor, ISSUE_OPENED in the same transaction', async () => {
    const first = await openIssue(h, w, { title: '  Perdita olio  ' })
    const second = await openIssue(h, w, { type_key: w.types.critical, description: 'Sotto la pressa' })
    expect(first.code).toMatch(/^ISS-\d{6}$/)
    expect(Number(second.code.slice(4))).toBe(Number(first.code.slice(4)) + 1)
    expect(first).toMatchObject({
      title: 'Perdita olio',
      description: '',
      state: 'open',
      critical: false,
      context_type: 'generic',
      job_key: null,
      work_order_key: null,
      product_key: null,
      type_key: w.types.plain,
      type_code: 'svc-PLAIN',
      type_name: 'Tipo svc-PLAIN',
      opened_by_key: w.quality.key,
      opened_at: h.clock.now().getTime(),
      created_at: h.clock.now().getTime(),
      closed_at: null,
      escalated_at: null,
      close_within: 0,
      attachment_count: 0,
      attachments: [],
    })
    expect(second).toMatchObject({ critical: true, description: 'Sotto la pressa' })
    expect((await openIssue(h, w, { type_key: w.types.critical, critical: false })).critical).toBe(false)
    expect((await openIssue(h, w, { critical: true })).critical).toBe(true)
    expect(first.history).toEqual([
      {
        _key: expect.any(String),
        event_type: 'ISSUE_OPENED',
        user_key: w.quality.key,
        user_name: 'svc.quality',
        timestamp: h.clock.now().getTime(),
        data: {
          code: first.code,
          title: 'Perdita olio',
          type: 'svc-PLAIN',
          critical: false,
          context_type: 'generic',
          job_key: null,
          work_order_key: null,
          product_key: null,
          batch_key: null,
          step_key: null,
        },
      },
    ])
  })

  test('context: a job brings its work order and product, and may name its batch and step; a work order brings its product', async () => {
    const job = w.wo.jobs[0]!
    const onJob = await openIssue(h, w, { job_key: job, batch_key: w.batch, step_key: w.steps[1], work_order_key: w.wo.id, product_key: w.product.id })
    expect(onJob).toMatchObject({
      context_type: 'job',
      job_key: job,
      phase_name: 'Montaggio',
      batch_key: w.batch,
      step_key: w.steps[1],
      work_order_key: w.wo.id,
      work_order_code: 'svc-WO1',
      product_key: w.product.id,
      product_code: 'svc-PROD',
    })
    // The detail names the batch and the step it was raised on in words (batch number and pieces, step place and title).
    expect(await getIssue(h.svc, onJob._key)).toMatchObject({
      batch: { _key: w.batch, number: 1, qt_total: 2 },
      step: { _key: w.steps[1], position: 2, title: 'Compila' },
    })
    const jobOnly = await openIssue(h, w, { job_key: job })
    expect(await getIssue(h.svc, jobOnly._key)).toMatchObject({ batch: null, step: null })
    // A step since removed from the phase keeps its key, without a place or a title.
    const phase = await h.svc.db.selectFrom('jobs').select('phase_id').where('id', '=', job).executeTakeFirstOrThrow()
    const { steps } = await h.svc.db.selectFrom('product_phases').select('steps').where('id', '=', phase.phase_id).executeTakeFirstOrThrow()
    await reshapeReleased(h.svc.db, (trx) => trx.updateTable('product_phases').set({ steps: JSON.stringify(steps.filter((st) => st._key !== w.steps[1])) }).where('id', '=', phase.phase_id).execute())
    await h.svc.db.updateTable('jobs').set({ step_sequence: JSON.stringify([{ _key: w.steps[0], type: 'instruction' }]) }).where('id', '=', job).execute()
    expect((await getIssue(h.svc, onJob._key)).step).toEqual({ _key: w.steps[1]!, position: null, title: null })
    await reshapeReleased(h.svc.db, (trx) => trx.updateTable('product_phases').set({ steps: JSON.stringify(steps) }).where('id', '=', phase.phase_id).execute())
    await h.svc.db.updateTable('jobs').set({ step_sequence: JSON.stringify(steps.map((st) => ({ _key: st._key, type: st.type }))) }).where('id', '=', job).execute()
    expect(await openIssue(h, w, { work_order_key: w.wo2.id })).toMatchObject({ context_type: 'work_order', job_key: null, work_order_key: w.wo2.id, product_key: w.product.id })
    expect(await openIssue(h, w, { product_key: w.otherProduct.id })).toMatchObject({ context_type: 'product', work_order_key: null, product_key: w.otherProduct.id, product_code: 'svc-OTHER' })
  })

  test('open refused: unknown or inactive type, empty title, unknown context, mismatching keys; nothing written', async () => {
    const before = await tableCounts(h)
    const job = w.wo.jobs[0]!
    const cases: [Parameters<typeof openIssue>[2], number, string][] = [
      [{ type_key: crypto.randomUUID() }, 400, 'UNKNOWN_ISSUE_TYPE'],
      [{ type_key: w.types.inactive }, 409, 'ISSUE_TYPE_INACTIVE'],
      [{ title: '   ' }, 400, 'ISSUE_TITLE_REQUIRED'],
      [{ job_key: crypto.randomUUID() }, 400, 'UNKNOWN_JOB'],
      [{ work_order_key: crypto.randomUUID() }, 400, 'UNKNOWN_WORK_ORDER'],
      [{ product_key: crypto.randomUUID() }, 400, 'UNKNOWN_PRODUCT'],
      [{ batch_key: w.batch }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ step_key: w.steps[0] }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ work_order_key: w.wo.id, step_key: w.steps[0] }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ job_key: w.wo.jobs[1]!, batch_key: w.batch }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ job_key: job, batch_key: crypto.randomUUID() }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ job_key: job, step_key: 'no-such-step' }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ job_key: job, work_order_key: w.wo2.id }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ job_key: job, product_key: w.otherProduct.id }, 400, 'ISSUE_CONTEXT_MISMATCH'],
      [{ work_order_key: w.wo.id, product_key: w.otherProduct.id }, 400, 'ISSUE_CONTEXT_MISMATCH'],
    ]
    for (const [input, status, code] of cases) expect({ input, ...(await refused(openIssue(h, w, input))) }).toEqual({ input, status, code })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('who opens where: quality anywhere, production on a job, work order or product, operators on a job only', async () => {
    const job = { job_key: w.wo.jobs[0]! }
    for (const input of [{}, job, { work_order_key: w.wo.id }, { product_key: w.product.id }]) expect((await openIssue(h, w, input, w.quality)).state).toBe('open')
    for (const input of [job, { work_order_key: w.wo.id }, { product_key: w.product.id }]) expect((await openIssue(h, w, input, w.production)).state).toBe('open')
    expect(await refused(openIssue(h, w, {}, w.production))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    expect((await openIssue(h, w, job, w.operator)).opened_by_key).toBe(w.operator.key)
    for (const input of [{}, { work_order_key: w.wo.id }, { product_key: w.product.id }]) {
      expect(await refused(openIssue(h, w, input, w.operator))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    }
    // Another operator's job: no; an unassigned one (any operator may take it): yes.
    const assign = (operator: string | null) => h.svc.db.updateTable('jobs').set({ operator_id: operator }).where('id', '=', job.job_key).execute()
    const before = (await h.svc.db.selectFrom('jobs').select('operator_id').where('id', '=', job.job_key).executeTakeFirstOrThrow()).operator_id
    await assign(w.operator.key)
    expect(await refused(openIssue(h, w, job, w.operator2))).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    await assign(null)
    expect((await openIssue(h, w, job, w.operator2)).opened_by_key).toBe(w.operator2.key)
    await assign(before)
  })

  test('edit: title, description and type by quality or the opener, not by another operator; an event lists what changed', async () => {
    const issue = await openIssue(h, w, { job_key: w.wo.jobs[0]!, title: 'Vite mancante' }, w.operator)
    h.clock.advance(60_000)
    const edited = await updateIssue(h.svc, w.operator.actor, issue._key, { title: ' Vite M6 mancante ', description: 'Due pezzi', type_key: w.types.critical })
    expect(edited).toMatchObject({ title: 'Vite M6 mancante', description: 'Due pezzi', type_key: w.types.critical, critical: false, updated_at: h.clock.now().getTime() })
    expect(edited.history.at(-1)).toMatchObject({ event_type: 'ISSUE_UPDATED', user_key: w.operator.key, data: { code: issue.code, changed: ['type', 'title', 'description'] } })
    expect(edited.history.at(-1)!.data.changes).toMatchObject({ title: { from: 'Vite mancante', to: 'Vite M6 mancante' }, description: { to: 'Due pezzi' } })
    await updateIssue(h.svc, w.quality.actor, issue._key, { title: 'Vite M6 mancante', description: 'Due pezzi' })
    await updateIssue(h.svc, w.quality.actor, issue._key, { description: 'Tre pezzi' })
    expect((await issueEvents(h.svc.db, issue._key)).map((e) => e.event_type)).toEqual(['ISSUE_OPENED', 'ISSUE_UPDATED', 'ISSUE_UPDATED'])

    const before = await tableCounts(h)
    expect(await refused(updateIssue(h.svc, w.operator2.actor, issue._key, { title: 'Altro' }))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    expect(await refused(updateIssue(h.svc, w.production.actor, issue._key, { title: 'Altro' }))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    expect(await refused(updateIssue(h.svc, w.operator.actor, issue._key, { title: ' ' }))).toEqual({ status: 400, code: 'ISSUE_TITLE_REQUIRED' })
    expect(await refused(updateIssue(h.svc, w.operator.actor, issue._key, { type_key: crypto.randomUUID() }))).toEqual({ status: 400, code: 'UNKNOWN_ISSUE_TYPE' })
    expect(await refused(updateIssue(h.svc, w.operator.actor, issue._key, { type_key: w.types.inactive }))).toEqual({ status: 409, code: 'ISSUE_TYPE_INACTIVE' })
    expect(await refused(updateIssue(h.svc, w.operator.actor, crypto.randomUUID(), { title: 'x' }))).toEqual({ status: 404, code: 'NOT_FOUND' })
    expect(await tableCounts(h)).toEqual(before)

    await act(issue._key, 'close')
    expect(await refused(updateIssue(h.svc, w.operator.actor, issue._key, { title: 'Dopo' }))).toEqual({ status: 409, code: 'ISSUE_CLOSED' })
    expect(await refused(updateIssue(h.svc, w.quality.actor, issue._key, { title: 'Dopo' }))).toEqual({ status: 409, code: 'ISSUE_CLOSED' })
  })

  test('actions: every transition with its event and actor; every guard refuses without writing', async () => {
    const issue = await openIssue(h, w, { title: 'Transizioni' })
    const guard = async (action: Parameters<typeof act>[1], status: number, code: string) => {
      const before = await tableCounts(h)
      expect({ action, ...(await refused(act(issue._key, action))) }).toEqual({ action, status, code })
      expect(await tableCounts(h)).toEqual(before)
    }
    await guard('reopen', 409, 'ISSUE_NOT_CLOSED')
    await guard('reopen_critical', 409, 'ISSUE_NOT_CLOSED')
    await guard('make_non_critical', 409, 'ISSUE_NOT_CRITICAL')

    h.clock.advance(60_000)
    expect(await act(issue._key, 'make_critical')).toMatchObject({ state: 'open', critical: true })
    await guard('make_critical', 409, 'ISSUE_ALREADY_CRITICAL')
    expect(await act(issue._key, 'make_non_critical')).toMatchObject({ state: 'open', critical: false })

    h.clock.advance(60_000)
    const closed = await act(issue._key, 'close')
    expect(closed).toMatchObject({ state: 'closed', closed_at: h.clock.now().getTime(), closed_by_name: 'svc.quality' })
    await guard('close', 409, 'ISSUE_CLOSED')
    await guard('make_critical', 409, 'ISSUE_CLOSED')
    await guard('make_non_critical', 409, 'ISSUE_CLOSED')

    h.clock.advance(60_000)
    const reopened = await act(issue._key, 'reopen')
    expect(reopened).toMatchObject({ state: 'reopened', critical: false, closed_at: null, closed_by_name: null, opened_at: h.clock.now().getTime() })
    await act(issue._key, 'make_critical')
    await act(issue._key, 'close')
    // Reopening keeps the critical flag as it was.
    expect(await act(issue._key, 'reopen')).toMatchObject({ state: 'reopened', critical: true })
    await act(issue._key, 'make_non_critical')
    await act(issue._key, 'close')
    h.clock.advance(60_000)
    const critical = await act(issue._key, 'reopen_critical')
    expect(critical).toMatchObject({ state: 'reopened', critical: true, opened_at: h.clock.now().getTime() })

    const detail = await getIssue(h.svc, issue._key)
    expect(detail.history.map((e) => [e.event_type, e.data.critical])).toEqual([
      ['ISSUE_OPENED', false],
      ['ISSUE_MADE_CRITICAL', true],
      ['ISSUE_MADE_NON_CRITICAL', false],
      ['ISSUE_CLOSED', false],
      ['ISSUE_REOPENED', false],
      ['ISSUE_MADE_CRITICAL', true],
      ['ISSUE_CLOSED', true],
      ['ISSUE_REOPENED', true],
      ['ISSUE_MADE_NON_CRITICAL', false],
      ['ISSUE_CLOSED', false],
      ['ISSUE_REOPENED_CRITICAL', true],
    ])
    expect(new Set(detail.history.slice(1).map((e) => e.user_name))).toEqual(new Set(['svc.quality']))
    // History oldest first, timestamps never going back.
    const times = detail.history.map((e) => e.timestamp)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(await refused(act(crypto.randomUUID(), 'close'))).toEqual({ status: 404, code: 'NOT_FOUND' })
  })

  test('get by key or by code; unknown keys and codes are 404', async () => {
    const issue = await openIssue(h, w, { title: 'Per codice' })
    expect((await getIssue(h.svc, issue.code))._key).toBe(issue._key)
    expect((await getIssue(h.svc, issue.code.toLowerCase()))._key).toBe(issue._key)
    for (const key of [crypto.randomUUID(), 'ISS-999999', 'nonsense']) expect(await refused(getIssue(h.svc, key))).toEqual({ status: 404, code: 'NOT_FOUND' })
  })
})

describe('issues: critical marks on jobs and work orders', () => {
  const h = useHarness()
  let w: IssueWorld
  beforeAll(async () => {
    w = await makeIssueWorld(h, 'mark')
  })
  const act = (key: string, action: Parameters<typeof actOnIssue>[3]) => actOnIssue(h.svc, w.quality.actor, key, action)

  test('a critical issue on a job marks that job only, not its work order; two of them, close one: still critical; close both: cleared', async () => {
    const [job1, job2] = w.wo.jobs as [string, string]
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [false, false] })
    const a = await openIssue(h, w, { job_key: job1, critical: true })
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    const b = await openIssue(h, w, { job_key: job1, critical: true })
    await act(a._key, 'close')
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    await act(b._key, 'make_non_critical')
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [false, false] })
    await act(a._key, 'reopen')
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    await act(a._key, 'close')
    await act(b._key, 'make_critical')
    await openIssue(h, w, { job_key: job2 })
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    await act(b._key, 'close')
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [false, false] })
    await act(b._key, 'reopen_critical')
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    await act(b._key, 'close')
    // Another work order is never touched.
    expect(await criticalMarks(h.svc.db, w.wo2)).toEqual({ work_order: false, jobs: [false, false] })
  })

  test('a critical issue on the work order marks the work order only; product and generic issues mark nothing', async () => {
    const onWo = await openIssue(h, w, { work_order_key: w.wo2.id, critical: true })
    expect(await criticalMarks(h.svc.db, w.wo2)).toEqual({ work_order: true, jobs: [false, false] })
    await openIssue(h, w, { product_key: w.product.id, critical: true })
    await openIssue(h, w, { critical: true })
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [false, false] })
    await act(onWo._key, 'close')
    expect(await criticalMarks(h.svc.db, w.wo2)).toEqual({ work_order: false, jobs: [false, false] })
  })

  test('an issue on a phase 2 job: the job list, the job, the operator queue and the work session show that job critical, not the phase 1 job; the work order has a critical job', async () => {
    const [phase1Job, phase2Job] = w.wo.jobs as [string, string]
    const issue = await openIssue(h, w, { job_key: phase2Job, critical: true })
    const prod = w.production.token
    const keysOf = (res: { body: { detail: { rows: { _key: string }[] } } }) => res.body.detail.rows.map((r) => r._key).sort()
    expect(keysOf(await h.request('GET', '/api/job?filters=critical', { token: prod }))).toEqual([phase2Job])
    expect(keysOf(await h.request('GET', '/api/job?filters=not_critical', { token: prod }))).toEqual([phase1Job, ...w.wo2.jobs].sort())
    expect((await h.request('GET', `/api/job/${phase1Job}`, { token: prod })).body.detail).toMatchObject({ critical: false, work_order: { critical: false } })
    expect((await h.request('GET', `/api/job/${phase2Job}`, { token: prod })).body.detail).toMatchObject({ critical: true, work_order: { critical: false } })
    // The operator queue (unassigned jobs here) reads the same rows.
    const queue = (await h.request('GET', '/api/job-assignment', { token: prod })).body.detail
    const queued = Object.fromEntries((queue.unassigned_jobs as { _key: string; critical: boolean }[]).map((j) => [j._key, j.critical]))
    expect({ phase1: queued[phase1Job], phase2: queued[phase2Job] }).toEqual({ phase1: false, phase2: true })
    // The operator's work session header.
    const view = async (job: string) => (await h.request('GET', `/api/job/${job}/work-session`, { token: prod })).body.detail.job.critical
    expect({ phase1: await view(phase1Job), phase2: await view(phase2Job) }).toEqual({ phase1: false, phase2: true })
    // The work order: not critical itself, but it has a critical job (its list filter finds it).
    const wos = (await h.request('GET', '/api/work-order?critical=true', { token: prod })).body.detail.rows
    expect(wos.map((r: { code: string; critical: boolean; has_critical_job: boolean }) => [r.code, r.critical, r.has_critical_job])).toEqual([['mark-WO1', false, true]])
    const detail = (await h.request('GET', `/api/work-order/${w.wo.id}`, { token: prod })).body.detail
    expect(detail).toMatchObject({ critical: false, has_critical_job: true })
    expect(detail.phases.map((ph: { jobs: { critical: boolean }[] }) => ph.jobs.map((j) => j.critical))).toEqual([[false], [true]])
    await act(issue._key, 'close')
    expect((await h.request('GET', '/api/job?filters=critical', { token: prod })).body.detail.rows).toEqual([])
    expect((await h.request('GET', '/api/work-order?critical=true', { token: prod })).body.detail.rows).toEqual([])
  })

  test('an issue on the work order shows on its open jobs; a closed job is never shown critical, nor counted as a critical job', async () => {
    const [phase1Job, phase2Job] = w.wo2.jobs as [string, string]
    const prod = w.production.token
    await h.svc.db.updateTable('jobs').set({ status: 'closed' }).where('id', '=', phase1Job).execute()
    const onJob = await openIssue(h, w, { job_key: phase1Job, critical: true })
    expect(await criticalMarks(h.svc.db, w.wo2)).toEqual({ work_order: false, jobs: [true, false] })
    const listed = (await h.request('GET', `/api/job?work_order_key=${w.wo2.id}`, { token: prod })).body.detail.rows
    expect(Object.fromEntries(listed.map((r: { _key: string; critical: boolean }) => [r._key, r.critical]))).toEqual({ [phase1Job]: false, [phase2Job]: false })
    expect((await h.request('GET', `/api/job/${phase1Job}`, { token: prod })).body.detail.critical).toBe(false)
    const detail = (await h.request('GET', `/api/work-order/${w.wo2.id}`, { token: prod })).body.detail
    expect(detail).toMatchObject({ critical: false, has_critical_job: false })
    expect(detail.phases.map((ph: { jobs: { critical: boolean }[] }) => ph.jobs.map((j) => j.critical))).toEqual([[false], [false]])

    const onWo = await openIssue(h, w, { work_order_key: w.wo2.id, critical: true })
    const after = (await h.request('GET', `/api/job?work_order_key=${w.wo2.id}`, { token: prod })).body.detail.rows
    expect(Object.fromEntries(after.map((r: { _key: string; critical: boolean }) => [r._key, r.critical]))).toEqual({ [phase1Job]: false, [phase2Job]: true })
    expect((await h.request('GET', `/api/work-order/${w.wo2.id}`, { token: prod })).body.detail).toMatchObject({ critical: true, has_critical_job: false })
    await act(onWo._key, 'close')
    await act(onJob._key, 'close')
    await h.svc.db.updateTable('jobs').set({ status: 'queued' }).where('id', '=', phase1Job).execute()
  })

  test('many issues changing at once on one work order leave the marks right', async () => {
    const issues = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => openIssue(h, w, { job_key: w.wo.jobs[i % 2]!, critical: true })),
      openIssue(h, w, { work_order_key: w.wo.id, critical: true }),
    ])
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: true, jobs: [true, true] })
    await Promise.all(issues.map((i) => act(i._key, 'close')))
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [false, false] })
  })
})
