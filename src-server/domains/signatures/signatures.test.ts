import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'
import { startJobs } from '../execution/start-pause'
import { completeStep, saveStep } from '../execution/steps'
import { eventsOf, makeOperator, makeSetup, newKey, type Operator } from '../execution/test-fixtures'
import { recordPdf } from '../history-record/record-pdf'
import { workOrderRecord } from '../history-record/service'
import { pdfText } from '../printers/test-printers'
import { workOrderHistory } from '../work-orders/history'
import { canonicalJson } from './content'
import { listWorkOrderSignatures, verifySignature } from './service'

/**
 * Electronic signatures on batch steps (issue 22): required per step by its definition, the
 * operator's password and a second signer with a permission word, refusals that complete
 * nothing, the sign-in throttle, the content hash that stops matching when the signed data
 * changes, and the append-only table.
 */
describe('signatures: signed batch steps', () => {
  const h = useHarness()
  const PASSWORD = 'password-123'
  let op: Operator
  let guesser: Operator
  let quality: Operator
  let setup: Awaited<ReturnType<typeof makeSetup>>
  let batch: string
  let signed: string
  let performedOnly: string
  let plain: string
  let field: string

  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode }
    }
    throw new Error('expected a refusal')
  }
  const stepRow = (stepKey: string) =>
    h.svc.db.selectFrom('batch_steps').selectAll().where('batch_id', '=', batch).where('step_key', '=', stepKey).executeTakeFirstOrThrow()
  const signatureCount = async () => Number((await h.svc.db.selectFrom('signatures').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const complete = (stepKey: string, signature?: Parameters<typeof completeStep>[2]['signature'], who = op) =>
    completeStep(h.svc, who.actor, {
      batch_key: batch,
      step_key: stepKey,
      ...(stepKey === signed ? { form_data: [{ field_key: field, value: 12.5 }] } : {}),
      ...(signature ? { signature } : {}),
      idempotency_key: newKey(),
    })

  test('setup: a step requiring Verified with a quality second signer, one requiring Performed, one plain', async () => {
    op = await makeOperator(h, 'op.sign')
    guesser = await makeOperator(h, 'op.guess')
    quality = await makeOperator(h, 'qa.sign', 'quality')
    // An operator without the quality permission, named as a second signer below.
    await makeOperator(h, 'op.other')
    await h.svc.db.updateTable('users').set({ name: 'Mario', surname: 'Rossi' }).where('id', '=', op.key).execute()
    setup = await makeSetup(h.svc.db, {
      quantity: 2,
      operator: op.key,
      defaults: { production_batch_qt: 2, step_check_force_order: false },
      phases: [
        {
          steps: [
            { type: 'form', fields: [{ type: 'number', mandatory: true }], signature: { meaning: 'verified', second_signer: 'quality' } },
            { type: 'instruction', signature: { meaning: 'performed', second_signer: null } },
            { type: 'instruction' },
          ],
        },
      ],
    })
    const steps = setup.phases[0]!.steps
    ;[signed, performedOnly, plain] = [steps[0]!._key, steps[1]!._key, steps[2]!._key]
    field = steps[0]!.fields[0]!
    const out = (await startJobs(h.svc, op.actor, { job_keys: [setup.jobs[0]![0]!], idempotency_key: newKey() })).jobs[0]!
    batch = out.batch!._key
  }, 60_000)

  test('the work session names the signature each step requires', async () => {
    const res = await h.request('GET', `/api/job/${setup.jobs[0]![0]}/work-session`, { token: op.token })
    expect(res.status).toBe(200)
    expect(res.body.detail.steps.map((s: { signature: unknown }) => s.signature)).toEqual([
      { meaning: 'verified', second_signer: 'quality' },
      { meaning: 'performed', second_signer: null },
      null,
    ])
  })

  test('a step that requires a signature is refused unsigned or without its second signer, completing nothing', async () => {
    expect(await refused(complete(signed))).toEqual({ status: 422, code: 'SIGNATURE_REQUIRED' })
    expect(await refused(complete(signed, { password: PASSWORD }))).toEqual({ status: 422, code: 'SECOND_SIGNER_REQUIRED' })
    expect(await refused(complete(performedOnly))).toEqual({ status: 422, code: 'SIGNATURE_REQUIRED' })
    expect((await stepRow(signed)).done).toBe(false)
    expect(await signatureCount()).toBe(0)
  })

  test('a wrong password, an unknown or wrong second signer, the same person twice, or one without the permission are refused', async () => {
    const qa = { username: 'qa.sign', password: PASSWORD }
    expect(await refused(complete(signed, { password: 'wrong-password', second_signer: qa }))).toEqual({ status: 400, code: 'SIGNATURE_INVALID' })
    expect(await refused(complete(signed, { password: PASSWORD, second_signer: { username: 'qa.sign', password: 'nope' } }))).toEqual({
      status: 400,
      code: 'SECOND_SIGNER_INVALID',
    })
    expect(await refused(complete(signed, { password: PASSWORD, second_signer: { username: 'nobody.here', password: PASSWORD } }))).toEqual({
      status: 400,
      code: 'SECOND_SIGNER_INVALID',
    })
    expect(await refused(complete(signed, { password: PASSWORD, second_signer: { username: 'OP.SIGN', password: PASSWORD } }))).toEqual({
      status: 422,
      code: 'SECOND_SIGNER_SAME_PERSON',
    })
    expect(await refused(complete(signed, { password: PASSWORD, second_signer: { username: 'op.other', password: PASSWORD } }))).toEqual({
      status: 403,
      code: 'SECOND_SIGNER_NOT_ALLOWED',
    })
    const row = await stepRow(signed)
    expect(row.done).toBe(false)
    expect(row.form_data).toEqual([])
    expect(await signatureCount()).toBe(0)
    expect(await eventsOf(h.svc.db, setup.jobs[0]![0]!, 'STEP_COMPLETED')).toHaveLength(0)
  })

  test('signed by the operator and a quality second signer over REST: two signatures with the content hash, two events', async () => {
    const res = await h.request('POST', `/api/batch/${batch}/steps/${signed}/complete`, {
      token: op.token,
      body: {
        form_data: [{ field_key: field, value: 12.5 }],
        signature: { password: PASSWORD, second_signer: { username: 'qa.sign', password: PASSWORD } },
        idempotency_key: newKey(),
      },
    })
    expect(res.status).toBe(200)
    expect((await stepRow(signed)).done).toBe(true)
    // The batch is still open, but the signed answers are frozen.
    expect(
      await refused(saveStep(h.svc, op.actor, { batch_key: batch, step_key: signed, form_data: [{ field_key: field, value: 1 }], idempotency_key: newKey() })),
    ).toEqual({ status: 409, code: 'STEP_SIGNED' })
    const list = await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)
    expect(list.map((s) => [s.role, s.meaning, s.full_name, s.user_key, s.required_scope, s.valid])).toEqual([
      ['signer', 'verified', 'Mario Rossi', op.key, null, true],
      ['second_signer', 'verified', 'qa.sign', quality.key, 'quality', true],
    ])
    expect(list.every((s) => s.signed_at === h.clock.now().getTime() && /^[0-9a-f]{64}$/.test(s.content_hash) && s.step_key === signed)).toBe(true)
    const events = await eventsOf(h.svc.db, setup.jobs[0]![0]!, 'STEP_SIGNED')
    expect(events.map((e) => [e.data.role, e.data.signature_key])).toEqual([
      ['signer', list[0]!._key],
      ['second_signer', list[1]!._key],
    ])
    // The same listing over REST.
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const rest = await h.request('GET', `/api/work-order/${setup.workOrderKey}/signatures`, { token: admin })
    expect(rest.status).toBe(200)
    expect(rest.body.detail.map((s: { valid: boolean }) => s.valid)).toEqual([true, true])
  })

  test('a step that requires only the operator is signed with the password alone; a plain step needs none', async () => {
    await complete(performedOnly, { password: PASSWORD })
    await complete(plain)
    const list = await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)
    expect(list.filter((s) => s.step_key === performedOnly).map((s) => [s.role, s.meaning])).toEqual([['signer', 'performed']])
    expect(list.some((s) => s.step_key === plain)).toBe(false)
  })

  test('the work order history shows the signatures under the completed step', async () => {
    const history = await workOrderHistory(h.svc, setup.workOrderKey)
    const completed = history.filter((e) => e.event_type === 'STEP_COMPLETED' && e.data.step_key === signed)
    expect(completed).toHaveLength(1)
    expect(completed[0]!.signatures.map((s) => [s.full_name, s.meaning, s.valid])).toEqual([
      ['Mario Rossi', 'verified', true],
      ['qa.sign', 'verified', true],
    ])
  })

  test('the production record carries the signatures under the step they signed, in JSON and in the PDF', async () => {
    const record = await workOrderRecord(h.svc, setup.workOrderKey)
    const step = record.phases.flatMap((p) => p.jobs.flatMap((j) => j.batches.flatMap((b) => b.steps))).find((st) => st._key === signed)!
    expect(step.signatures.map((s) => [s.full_name, s.meaning, s.role, s.valid])).toEqual([
      ['Mario Rossi', 'verified', 'signer', true],
      ['qa.sign', 'verified', 'second_signer', true],
    ])
    const text = (await pdfText(await recordPdf(record, 'it'))).replace(/\s+/g, ' ')
    // As the screens write it: "Firmato da Mario Rossi · 2026/11/28 14:03 · Verificato".
    expect(text).toMatch(/Firmato da Mario Rossi · \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} · Verificato/)
    expect(text).toMatch(/Firmato da qa\.sign · \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} · Verificato · secondo firmatario/)
  })

  test('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], e: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}')
  })

  test('the hash stops verifying after the signed values change in SQL, or a signature row is rewritten with triggers off', async () => {
    const [first] = await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)
    expect((await verifySignature(h.svc.db, first!._key))?.valid).toBe(true)
    await h.svc.db
      .updateTable('batch_steps')
      .set({ form_data: JSON.stringify([{ field_key: field, value: 13 }]) })
      .where('batch_id', '=', batch)
      .where('step_key', '=', signed)
      .execute()
    const after = await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)
    expect(after.filter((s) => s.step_key === signed).map((s) => s.valid)).toEqual([false, false])
    expect(after.filter((s) => s.step_key === performedOnly).map((s) => s.valid)).toEqual([true])
    // Back to the signed values: it verifies again (the hash is of the content, not of the moment).
    await h.svc.db
      .updateTable('batch_steps')
      .set({ form_data: JSON.stringify([{ field_key: field, value: 12.5 }]) })
      .where('batch_id', '=', batch)
      .where('step_key', '=', signed)
      .execute()
    expect((await verifySignature(h.svc.db, first!._key))?.valid).toBe(true)
    // Someone with the owner's role switches triggers off and changes the meaning signed.
    const other = (await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)).find((s) => s.step_key === performedOnly)!
    await h.svc.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx)
      await trx.updateTable('signatures').set({ meaning: 'approved' }).where('id', '=', other._key).execute()
    })
    expect((await verifySignature(h.svc.db, other._key))?.valid).toBe(false)
  })

  test('the database refuses to update, delete or truncate signatures', async () => {
    const message = async (q: Promise<unknown>) => {
      try {
        await q
      } catch (e) {
        return (e as Error).message
      }
      return 'not refused'
    }
    expect(await message(h.svc.db.updateTable('signatures').set({ full_name: 'Someone Else' }).execute())).toContain('append-only')
    expect(await message(h.svc.db.deleteFrom('signatures').execute())).toContain('append-only')
    expect(await message(sql`truncate signatures`.execute(h.svc.db))).toContain('append-only')
  })

  test('wrong signature passwords count in the sign-in throttle: the 6th attempt waits, and so does the login', async () => {
    const s = await makeSetup(h.svc.db, {
      quantity: 1,
      operator: guesser.key,
      phases: [{ steps: [{ type: 'instruction', signature: { meaning: 'approved', second_signer: null } }] }],
    })
    const out = (await startJobs(h.svc, guesser.actor, { job_keys: [s.jobs[0]![0]!], idempotency_key: newKey() })).jobs[0]!
    const attempt = (password: string) =>
      completeStep(h.svc, guesser.actor, { batch_key: out.batch!._key, step_key: s.phases[0]!.steps[0]!._key, signature: { password }, idempotency_key: newKey() })
    for (let i = 0; i < 5; i++) expect(await refused(attempt(`guess-${i}`))).toEqual({ status: 400, code: 'SIGNATURE_INVALID' })
    expect(await refused(attempt(PASSWORD))).toEqual({ status: 429, code: 'LOGIN_THROTTLED' })
    const login = await h.request('POST', '/api/login', { body: { username: 'op.guess', password: PASSWORD } })
    expect([login.status, login.body.detail?.code ?? login.body.code]).toEqual([429, 'LOGIN_THROTTLED'])
    h.clock.advance(2_000)
    const done = await attempt(PASSWORD)
    expect(done.completed_batch?._key).toBe(out.batch!._key)
  })
})
