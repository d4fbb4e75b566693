import { describe, expect, test } from 'bun:test'
import { appCode, tableCounts, TINY_PNG } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { completeBatch } from './batches'
import { newBatch, pauseJob, startJobs } from './start-pause'
import { completeStep, saveStep } from './steps'
import { eventsOf, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'

/**
 * Steps of a batch: form data by field type, mandatory fields, forced order, step_check off,
 * idempotent retries, concurrent completion from two devices, and nothing written on a refusal.
 */
describe('execution: steps, forms, idempotency, concurrency', () => {
  const h = useHarness()
  let op: Operator
  let other: Operator
  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode, extra: (e as { extra?: unknown }).extra }
    }
    throw new Error('expected a refusal')
  }
  /** Refused, and not one row anywhere changed (idempotency key included). */
  const refusedWritingNothing = async (p: () => Promise<unknown>) => {
    const before = await tableCounts(h)
    const r = await refused(p())
    expect(await tableCounts(h)).toEqual(before)
    return r
  }
  const setup = (opts: Omit<Parameters<typeof makeSetup>[1], 'defaults' | 'operator' | 'quantity'> & { quantity?: number }) =>
    makeSetup(h.svc.db, { quantity: 4, operator: op.key, ...opts, defaults: { parallel_job_allowed: true, production_batch_qt: 2 } })
  const startOne = async (job: string, who = op) => (await startJobs(h.svc, who.actor, { job_keys: [job], idempotency_key: newKey() })).jobs[0]!

  test('setup', async () => {
    op = await makeOperator(h, 'op.steps')
    other = await makeOperator(h, 'op.steps.other')
  }, 60_000)

  test('form values are checked by field type; unknown fields refused; answers saved in field order (STEP_EDITED)', async () => {
    const fields = [
      { name: 'bool', type: 'boolean' as const },
      { name: 'choice', type: 'choice' as const, options: ['A', 'B'] },
      { name: 'multi', type: 'choice' as const, options: ['A', 'B', 'C'], multiple: true },
      { name: 'date', type: 'date' as const },
      { name: 'num', type: 'number' as const },
      { name: 'text', type: 'text' as const },
      { name: 'tern', type: 'ternary' as const },
      { name: 'time', type: 'time' as const },
      { name: 'files', type: 'files' as const, multiple: true },
    ]
    const s = await setup({ phases: [{ steps: [{ type: 'form', fields }] }] })
    const f = s.phases[0]!.fields[0]!
    const step = s.phases[0]!.steps[0]!._key
    const out = await startOne(s.jobs[0]![0]!)
    const batch = out.batch!._key
    const save = (form_data: { field_key: string; value: unknown }[]) =>
      saveStep(h.svc, op.actor, { batch_key: batch, step_key: step, form_data: form_data as never, idempotency_key: newKey() })
    const bad: [string, unknown][] = [
      ['bool', 'yes'],
      ['choice', 'Z'],
      ['choice', ['A']],
      ['multi', 'A'],
      ['multi', ['A', 'Z']],
      ['date', '05/01/2026'],
      ['date', '2026-02-30'],
      ['num', 'seven'],
      ['text', 5],
      ['tern', 'maybe'],
      ['time', '25:00'],
      ['files', ['../etc/passwd']],
    ]
    for (const [name, value] of bad) {
      const r = await refusedWritingNothing(() => save([{ field_key: f[name]!, value }]))
      expect({ name, value, status: r.status, code: r.code }).toEqual({ name, value, status: 400, code: 'FORM_VALUE_INVALID' })
      expect(JSON.stringify(r.extra)).toContain(name)
    }
    expect((await refusedWritingNothing(() => save([{ field_key: crypto.randomUUID(), value: 'x' }]))).code).toBe('UNKNOWN_FIELD')

    const good: [string, unknown][] = [
      ['tern', 'true'],
      ['bool', false],
      ['choice', 'B'],
      ['multi', ['A', 'C']],
      ['date', '2026-01-05'],
      ['num', 3.5],
      ['text', '  spaced  '],
      ['time', '08:30'],
      ['files', ['photo-1.jpg', 'photo-2.jpg']],
    ]
    const saved = await save(good.map(([name, value]) => ({ field_key: f[name]!, value })))
    const data = saved.batch!.step_data[0]!.form_data
    // In the step's field order; text trimmed.
    expect(data.map((d) => d.field_key)).toEqual(fields.map((x) => f[x.name]!))
    expect(data.find((d) => d.field_key === f.text)!.value).toBe('spaced')
    const edited = await eventsOf(h.svc.db, s.jobs[0]![0]!, 'STEP_EDITED')
    expect(edited).toHaveLength(1)
    expect(edited[0]!.data).toMatchObject({ batch_key: batch, step_key: step })
    expect((edited[0]!.data.fields as string[]).length).toBe(9)
    // Saving the same answers again changes nothing and records nothing.
    await save(good.map(([name, value]) => ({ field_key: f[name]!, value })))
    expect(await eventsOf(h.svc.db, s.jobs[0]![0]!, 'STEP_EDITED')).toHaveLength(1)
  })

  test('mandatory fields must be filled before completing: 422 naming them, nothing written', async () => {
    const s = await setup({
      phases: [{ steps: [{ type: 'form', fields: [{ name: 'Serial checked', type: 'boolean', mandatory: true }, { name: 'Torque', type: 'number', mandatory: true }, { name: 'Note', type: 'text' }] }] }],
    })
    const f = s.phases[0]!.fields[0]!
    const step = s.phases[0]!.steps[0]!._key
    const out = await startOne(s.jobs[0]![0]!)
    const batch = out.batch!._key
    const complete = (form_data?: { field_key: string; value: unknown }[]) =>
      completeStep(h.svc, op.actor, { batch_key: batch, step_key: step, form_data: form_data as never, idempotency_key: newKey() })
    let r = await refusedWritingNothing(() => complete())
    expect(r).toMatchObject({ status: 422, code: 'MANDATORY_FIELDS_MISSING' })
    expect((r.extra as { fields: { name: string }[] }).fields.map((x) => x.name)).toEqual(['Serial checked', 'Torque'])
    r = await refusedWritingNothing(() => complete([{ field_key: f['Serial checked']!, value: true }, { field_key: f.Note!, value: 'x' }]))
    expect((r.extra as { fields: { name: string }[] }).fields.map((x) => x.name)).toEqual(['Torque'])
    // false is a value; an empty text is not (but Note is optional).
    const done = await complete([{ field_key: f['Serial checked']!, value: false }, { field_key: f.Torque!, value: 0 }, { field_key: f.Note!, value: '' }])
    expect(done.next).toBe('batch_opened')
    expect(done.completed_batch!.qt_total).toBe(2)
  })

  test('form data stays editable until the batch completes; a done step keeps its mandatory fields', async () => {
    const s = await setup({
      phases: [{ steps: [{ type: 'form', fields: [{ name: 'Value', type: 'text', mandatory: true }] }, { type: 'instruction' }] }],
    })
    const [formStep, lastStep] = s.phases[0]!.steps.map((x) => x._key)
    const field = s.phases[0]!.fields[0]!.Value!
    const out = await startOne(s.jobs[0]![0]!)
    const batch = out.batch!._key
    await completeStep(h.svc, op.actor, { batch_key: batch, step_key: formStep!, form_data: [{ field_key: field, value: 'first' }], idempotency_key: newKey() })
    const edited = await saveStep(h.svc, op.actor, { batch_key: batch, step_key: formStep!, form_data: [{ field_key: field, value: 'second' }], idempotency_key: newKey() })
    expect(edited.batch!.step_data[0]).toMatchObject({ done: true, form_data: [{ field_key: field, value: 'second' }] })
    const r = await refusedWritingNothing(() =>
      saveStep(h.svc, op.actor, { batch_key: batch, step_key: formStep!, form_data: [{ field_key: field, value: ' ' }], idempotency_key: newKey() }),
    )
    expect(r).toMatchObject({ status: 422, code: 'MANDATORY_FIELDS_MISSING' })
    await completeStep(h.svc, op.actor, { batch_key: batch, step_key: lastStep!, idempotency_key: newKey() })
    const after = await refusedWritingNothing(() =>
      saveStep(h.svc, op.actor, { batch_key: batch, step_key: formStep!, form_data: [{ field_key: field, value: 'third' }], idempotency_key: newKey() }),
    )
    expect(after).toMatchObject({ status: 409, code: 'BATCH_NOT_OPEN' })
  })

  test('step_check_force_order: steps in order only; without it any order', async () => {
    const forced = await setup({ phases: [{ params: { step_check_force_order: true }, steps: [{ type: 'instruction' }, { type: 'instruction' }, { type: 'instruction' }] }] })
    const keys = forced.phases[0]!.steps.map((x) => x._key)
    const b1 = (await startOne(forced.jobs[0]![0]!)).batch!._key
    const r = await refusedWritingNothing(() => completeStep(h.svc, op.actor, { batch_key: b1, step_key: keys[2]!, idempotency_key: newKey() }))
    expect(r).toMatchObject({ status: 409, code: 'STEP_OUT_OF_ORDER', extra: { pending: [keys[0], keys[1]] } })
    await completeStep(h.svc, op.actor, { batch_key: b1, step_key: keys[0]!, idempotency_key: newKey() })
    await completeStep(h.svc, op.actor, { batch_key: b1, step_key: keys[1]!, idempotency_key: newKey() })
    const last = await completeStep(h.svc, op.actor, { batch_key: b1, step_key: keys[2]!, idempotency_key: newKey() })
    expect(last.completed_batch).not.toBeNull()

    const free = await setup({ phases: [{ steps: [{ type: 'instruction' }, { type: 'instruction' }] }] })
    const fk = free.phases[0]!.steps.map((x) => x._key)
    const b2 = (await startOne(free.jobs[0]![0]!)).batch!._key
    const o = await completeStep(h.svc, op.actor, { batch_key: b2, step_key: fk[1]!, idempotency_key: newKey() })
    expect(o.next).toBe('continue')
    expect(o.batch!.step_data.map((d) => d.done)).toEqual([false, true])
    const events = await eventsOf(h.svc.db, free.jobs[0]![0]!, 'STEP_COMPLETED')
    expect(events.at(-1)!.data).toMatchObject({ batch_key: b2, step_key: fk[1] })
  })

  test('step_check false: completing the batch completes every step (mandatory fields still required); step_check true refuses it', async () => {
    const s = await setup({
      phases: [{ params: { step_check: false }, steps: [{ type: 'instruction' }, { type: 'form', fields: [{ name: 'M', type: 'text', mandatory: true }] }] }],
    })
    const [, formStep] = s.phases[0]!.steps.map((x) => x._key)
    const b = (await startOne(s.jobs[0]![0]!)).batch!._key
    const r = await refusedWritingNothing(() => completeBatch(h.svc, op.actor, { batch_key: b, idempotency_key: newKey() }))
    expect(r).toMatchObject({ status: 422, code: 'MANDATORY_FIELDS_MISSING' })
    await saveStep(h.svc, op.actor, { batch_key: b, step_key: formStep!, form_data: [{ field_key: s.phases[0]!.fields[1]!.M!, value: 'ok' }], idempotency_key: newKey() })
    const done = await completeBatch(h.svc, op.actor, { batch_key: b, idempotency_key: newKey() })
    expect(done.completed_batch).toMatchObject({ _key: b, qt_total: 2 })
    const stored = await h.svc.db.selectFrom('batch_steps').select('done').where('batch_id', '=', b).execute()
    expect(stored.every((x) => x.done)).toBe(true)
    expect((await eventsOf(h.svc.db, s.jobs[0]![0]!, 'BATCH_COMPLETED'))[0]!.data.steps_completed_with_batch).toHaveLength(2)

    const checked = await setup({ phases: [{ steps: [{ type: 'instruction' }] }] })
    const cb = (await startOne(checked.jobs[0]![0]!)).batch!._key
    const refusedCheck = await refusedWritingNothing(() => completeBatch(h.svc, op.actor, { batch_key: cb, idempotency_key: newKey() }))
    expect(refusedCheck).toMatchObject({ status: 409, code: 'STEPS_NOT_DONE' })
  })

  test('guards: unknown step 404, another operator 403, a paused job 409, done step 409', async () => {
    const s = await setup({ phases: [{ steps: [{ type: 'instruction' }, { type: 'instruction' }] }] })
    const job = s.jobs[0]![0]!
    const [k0] = s.phases[0]!.steps.map((x) => x._key)
    const b = (await startOne(job)).batch!._key
    expect(await refusedWritingNothing(() => completeStep(h.svc, op.actor, { batch_key: b, step_key: 'nope', idempotency_key: newKey() }))).toMatchObject({
      status: 404,
      code: 'UNKNOWN_STEP',
    })
    expect(await refusedWritingNothing(() => completeStep(h.svc, other.actor, { batch_key: b, step_key: k0!, idempotency_key: newKey() }))).toMatchObject({
      status: 403,
      code: 'JOB_NOT_YOURS',
    })
    await completeStep(h.svc, op.actor, { batch_key: b, step_key: k0!, idempotency_key: newKey() })
    expect(await refusedWritingNothing(() => completeStep(h.svc, op.actor, { batch_key: b, step_key: k0!, idempotency_key: newKey() }))).toMatchObject({
      status: 409,
      code: 'STEP_ALREADY_DONE',
    })
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(await refusedWritingNothing(() => completeStep(h.svc, op.actor, { batch_key: b, step_key: 'x', idempotency_key: newKey() }))).toMatchObject({
      status: 409,
      code: 'JOB_NOT_RUNNING',
    })
  })

  test('idempotent retries: the same key answers the first outcome with one effect; reused for another action 409', async () => {
    const s = await setup({ phases: [{ steps: [{ type: 'instruction' }] }], quantity: 4 })
    const job = s.jobs[0]![0]!
    const key = newKey()
    const first = await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: key })
    h.clock.advance(5000)
    const again = await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: key })
    expect(again).toEqual(first)
    expect(await h.svc.db.selectFrom('work_sessions').select('id').where('job_id', '=', job).execute()).toHaveLength(1)
    expect((await eventsOf(h.svc.db, job, 'JOB_STARTED')).length).toBe(1)

    // The retry of a completion that completed a batch does not complete the next batch.
    const step = s.phases[0]!.steps[0]!._key
    const b1 = first.jobs[0]!.batch!._key
    const ck = newKey()
    const c1 = await completeStep(h.svc, op.actor, { batch_key: b1, step_key: step, idempotency_key: ck })
    const c2 = await completeStep(h.svc, op.actor, { batch_key: b1, step_key: step, idempotency_key: ck })
    expect(c2).toEqual(c1)
    expect(c1.next).toBe('batch_opened')
    expect((await eventsOf(h.svc.db, job, 'BATCH_COMPLETED')).length).toBe(1)

    // Same key for another action, or by another user: refused.
    expect(await refused(pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: ck }))).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' })
    expect(await refused(completeStep(h.svc, other.actor, { batch_key: b1, step_key: step, idempotency_key: ck }))).toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    })
    // Pause retried: one JOB_PAUSED.
    const pk = newKey()
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: pk })
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: pk })
    expect((await eventsOf(h.svc.db, job, 'JOB_PAUSED')).length).toBe(1)
    // A refused action stores no key: once the rule holds, the same key runs for real.
    const rk = newKey()
    expect(await refused(newBatch(h.svc, op.actor, { job_key: job, idempotency_key: rk }))).toMatchObject({ code: 'JOB_NOT_RUNNING' })
    expect(await h.svc.db.selectFrom('idempotency_keys').select('key').where('key', '=', rk).execute()).toHaveLength(0)
  })

  test('two devices complete the same step at once (two connections): one succeeds, the other gets 409 STEP_ALREADY_DONE', async () => {
    const s = await setup({ phases: [{ steps: [{ type: 'instruction' }, { type: 'instruction' }] }] })
    const job = s.jobs[0]![0]!
    const step = s.phases[0]!.steps[0]!._key
    const out = await startOne(job)
    const b = out.batch!._key
    const tablet = (await makeOperatorSession(op)).token
    const path = `/api/batch/${b}/steps/${step}/complete`
    const [r1, r2] = await Promise.all([
      h.request('POST', path, { token: op.token, body: { idempotency_key: newKey() } }),
      h.request('POST', path, { token: tablet, body: { idempotency_key: newKey() } }),
    ])
    const statuses = [r1.status, r2.status].sort()
    expect(statuses).toEqual([200, 409])
    const loser = r1.status === 409 ? r1 : r2
    expect(appCode(loser.body)).toBe('STEP_ALREADY_DONE')
    expect(loser.body.detail.message).toContain('already completed')
    expect((await eventsOf(h.svc.db, job, 'STEP_COMPLETED')).length).toBe(1)

    // The same idempotency key sent twice at once (a retry racing the original): one effect, the same answer.
    const step2 = s.phases[0]!.steps[1]!._key
    const key = newKey()
    const p2 = `/api/batch/${b}/steps/${step2}/complete`
    const [a1, a2] = await Promise.all([
      h.request('POST', p2, { token: op.token, body: { idempotency_key: key } }),
      h.request('POST', p2, { token: tablet, body: { idempotency_key: key } }),
    ])
    expect([a1.status, a2.status]).toEqual([200, 200])
    expect(a1.body.detail).toEqual(a2.body.detail)
    expect((await eventsOf(h.svc.db, job, 'BATCH_COMPLETED')).length).toBe(1)
  })

  /** A second sign-in of the same operator (another tablet). */
  async function makeOperatorSession(o: Operator) {
    const res = await h.request('POST', '/api/login', { body: { username: 'op.steps', password: 'password-123' } })
    expect(res.body.detail.user_key).toBe(o.key)
    return { token: res.body.detail.token as string }
  }
})

describe('execution: files of form steps (POST files, bucket batch)', () => {
  const h = useHarness()
  let op: Operator
  let other: Operator
  const form = (batch: string, field: string, files: [Uint8Array, string][] = [[TINY_PNG, 'foto pezzo.png']]) => {
    const f = new FormData()
    f.append('bucket', 'batch')
    f.append('object_key', batch)
    f.append('subfolder', field)
    for (const [bytes, name] of files) f.append('contents', new File([new Uint8Array(bytes)], name))
    return f
  }

  test('the running operator uploads while the batch is open; the names go into the step; served back; others refused', async () => {
    op = await makeOperator(h, 'op.files')
    other = await makeOperator(h, 'op.files.other')
    const s = await makeSetup(h.svc.db, {
      quantity: 4,
      operator: op.key,
      phases: [{ steps: [{ type: 'form', fields: [{ name: 'foto', type: 'files', multiple: true, mandatory: true }, { name: 'nota', type: 'text' }] }] }],
      defaults: { production_batch_qt: 2 },
    })
    const [filesField, textField] = Object.values(s.phases[0]!.fields[0]!)
    const step = s.phases[0]!.steps[0]!._key
    const job = s.jobs[0]![0]!
    const batch = (await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })).jobs[0]!.batch!._key

    const before = await tableCounts(h)
    for (const [token, f, status, code] of [
      [other.token, form(batch, filesField!), 403, 'JOB_NOT_YOURS'],
      [op.token, form(batch, textField!), 400, 'INVALID_INPUT'],
      [op.token, form(batch, crypto.randomUUID()), 400, 'UNKNOWN_FIELD'],
      [op.token, form(crypto.randomUUID(), filesField!), 404, 'NOT_FOUND'],
      [op.token, form(batch, filesField!, [[new TextEncoder().encode('MZ not an image'), 'x.png']]), 400, 'INVALID_IMAGE'],
      [op.token, form(batch, filesField!, [[new TextEncoder().encode('MZ'), 'tool.exe']]), 400, 'UNSUPPORTED_FILE_TYPE'],
    ] as const) {
      const res = await h.request('POST', '/api/files', { token, body: f })
      expect([res.status, appCode(res.body), res.body.detail.message]).toEqual([status, code, expect.any(String)])
    }
    expect(await tableCounts(h)).toEqual(before)

    const res = await h.request('POST', '/api/files', { token: op.token, body: form(batch, filesField!, [[TINY_PNG, 'foto pezzo.png'], [TINY_PNG, 'foto pezzo.png']]) })
    expect(res.status).toBe(201)
    expect(res.body.detail).toMatchObject({ bucket: 'batch', object_key: batch, subfolder: filesField, filenames: ['foto_pezzo.png', 'foto_pezzo-2.png'] })
    const served = await h.request('GET', res.body.detail.urls[1], { token: other.token })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect((await eventsOf(h.svc.db, job, 'BATCH_FILES_UPLOADED'))[0]!.data).toMatchObject({ batch_key: batch, filenames: ['foto_pezzo.png', 'foto_pezzo-2.png'] })

    await completeStep(h.svc, op.actor, { batch_key: batch, step_key: step, form_data: [{ field_key: filesField!, value: res.body.detail.filenames }], idempotency_key: newKey() })
    // The batch completed with its last step (the next one is open): no more files for it.
    const late = await h.request('POST', '/api/files', { token: op.token, body: form(batch, filesField!) })
    expect([late.status, appCode(late.body)]).toEqual([409, 'BATCH_NOT_OPEN'])
    // A batch's files are part of its record: DELETE files is the library's, for products only.
    const del = await h.request('DELETE', '/api/files', { token: op.token, body: { bucket: 'batch', object_key: batch, subfolder: filesField, filenames: ['foto_pezzo.png'] } })
    expect(del.status).toBe(403)
    // An operator cannot write into a product's files.
    const product = new FormData()
    product.append('bucket', 'product')
    product.append('object_key', s.productKey)
    product.append('subfolder', filesField!)
    product.append('contents', new File([TINY_PNG], 'a.png'))
    expect(appCode((await h.request('POST', '/api/files', { token: op.token, body: product })).body)).toBe('NOT_AUTHORISED')
  })
})
