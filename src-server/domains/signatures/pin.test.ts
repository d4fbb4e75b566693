import { describe, expect, test } from 'bun:test'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'
import { startJobs } from '../execution/start-pause'
import { completeStep } from '../execution/steps'
import { makeOperator, makeSetup, newKey, type Operator } from '../execution/test-fixtures'
import { listWorkOrderSignatures } from './service'

/**
 * Signing with a personal PIN (issue 22, docs/signatures.md): the plant setting that allows it,
 * the own PIN set with the password and stored as a hash only, badges unique per user, the
 * operator signing with the PIN, a second signer naming themselves by badge with their PIN, and
 * wrong PINs counted in the sign-in throttle together with the login.
 */
describe('signatures: personal PIN and badge', () => {
  const h = useHarness()
  const PASSWORD = 'password-123'
  const OP_PIN = '482915'
  const QA_PIN = '730264'
  let admin: string
  let op: Operator
  let quality: Operator
  let guesser: Operator
  let setup: Awaited<ReturnType<typeof makeSetup>>
  let batch: string
  let foureyes: string
  let single: string

  const code = (res: { status: number; body: { detail?: { code?: string } } }) => [res.status, res.body.detail?.code]
  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode }
    }
    throw new Error('expected a refusal')
  }
  const setPin = (who: Operator, new_pin: string, current_password = PASSWORD) =>
    h.request('POST', '/api/pin', { token: who.token, body: { current_password, new_pin } })
  const settings = (patch: Record<string, unknown>) => h.request('PATCH', '/api/settings', { token: admin, body: patch })
  const signatureCount = async () => Number((await h.svc.db.selectFrom('signatures').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const stepDone = async (stepKey: string) =>
    (await h.svc.db.selectFrom('batch_steps').select('done').where('batch_id', '=', batch).where('step_key', '=', stepKey).executeTakeFirstOrThrow()).done
  const complete = (stepKey: string, signature: Parameters<typeof completeStep>[2]['signature'], who = op, batchKey = batch) =>
    completeStep(h.svc, who.actor, { batch_key: batchKey, step_key: stepKey, signature, idempotency_key: newKey() })

  test('setup: an operator, a quality second signer, a step with four eyes and one signed by the operator alone', async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    op = await makeOperator(h, 'op.pin')
    quality = await makeOperator(h, 'qa.pin', 'quality')
    guesser = await makeOperator(h, 'op.pinguess')
    setup = await makeSetup(h.svc.db, {
      quantity: 1,
      operator: op.key,
      defaults: { production_batch_qt: 1, step_check_force_order: false },
      phases: [
        {
          steps: [
            { type: 'instruction', signature: { meaning: 'verified', second_signer: 'quality' } },
            { type: 'instruction', signature: { meaning: 'performed', second_signer: null } },
          ],
        },
      ],
    })
    ;[foureyes, single] = setup.phases[0]!.steps.map((s) => s._key) as [string, string]
    batch = (await startJobs(h.svc, op.actor, { job_keys: [setup.jobs[0]![0]!], idempotency_key: newKey() })).jobs[0]!.batch!._key
  }, 60_000)

  test('the setting is off by default with a 6-digit minimum; while off, no PIN can be set', async () => {
    const read = await h.request('GET', '/api/settings', { token: op.token })
    expect([read.body.detail.pin_signing, read.body.detail.pin_min_length]).toEqual([false, 6])
    expect(code(await setPin(op, OP_PIN))).toEqual([422, 'PIN_SIGNING_DISABLED'])
    expect(code(await settings({ pin_min_length: 3 }))).toEqual([400, 'INVALID_INPUT'])
    expect(code(await settings({ pin_signing: true }))).toEqual([200, undefined])
  })

  test('a PIN is set with the current password, digits of the minimum length, not a first guess; stored as an argon2id hash only', async () => {
    expect(code(await setPin(op, OP_PIN, 'wrong-password'))).toEqual([400, 'WRONG_PASSWORD'])
    const short = await setPin(op, '48291')
    expect(code(short)).toEqual([400, 'PIN_INVALID'])
    expect(short.body.detail).toMatchObject({ min_length: 6, max_length: 12 })
    expect(code(await setPin(op, '48a915'))).toEqual([400, 'PIN_INVALID'])
    for (const simple of ['111111', '123456', '987654', '890123']) expect(code(await setPin(op, simple))).toEqual([400, 'PIN_TOO_SIMPLE'])
    expect((await h.svc.db.selectFrom('users').select('pin_hash').where('id', '=', op.key).executeTakeFirstOrThrow()).pin_hash).toBeNull()

    expect(code(await setPin(op, '193746'))).toEqual([200, undefined])
    expect(code(await setPin(op, OP_PIN))).toEqual([200, undefined]) // changed
    expect(code(await setPin(quality, QA_PIN))).toEqual([200, undefined])
    const row = await h.svc.db.selectFrom('users').selectAll().where('id', '=', op.key).executeTakeFirstOrThrow()
    expect(row.pin_hash).toStartWith('$argon2id$')
    expect(row.pin_hash).not.toContain(OP_PIN)
    expect(await Bun.password.verify(OP_PIN, row.pin_hash!)).toBe(true)
    expect(await Bun.password.verify('193746', row.pin_hash!)).toBe(false)
    const events = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'PIN_CHANGED').where('subject_key', '=', op.key).execute()
    expect(events).toHaveLength(2)
    expect(JSON.stringify(events)).not.toContain(OP_PIN)
    const info = await h.request('POST', '/api/session', { token: op.token, body: { user_key: op.key } })
    expect(info.body.detail.has_pin).toBe(true)
  })

  test('badges are set by an admin, unique, and shown with whether a PIN is set', async () => {
    const patch = (key: string, badge: string | null) => h.request('PATCH', `/api/user/${key}`, { token: admin, body: { badge } })
    const set = await patch(quality.key, 'QA-0042')
    expect([set.status, set.body.detail.badge, set.body.detail.has_pin]).toEqual([200, 'QA-0042', true])
    expect(code(await patch(op.key, 'QA-0042'))).toEqual([409, 'BADGE_TAKEN'])
    expect(code(await patch(op.key, 'OP 7'))).toEqual([400, 'INVALID_INPUT'])
    expect((await patch(op.key, 'OP-0007')).body.detail.badge).toBe('OP-0007')
    expect(code(await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { badge: 'MINE' } }))).toEqual([403, 'NOT_AUTHORISED'])
    expect(JSON.stringify((await h.request('GET', `/api/user/${op.key}`, { token: admin })).body)).not.toContain('argon2')
  })

  test('a wrong badge or PIN, an unknown badge, or the own badge complete nothing', async () => {
    const before = await signatureCount()
    expect(await refused(complete(foureyes, { pin: '000001', second_signer: { badge: 'QA-0042', pin: QA_PIN } }))).toEqual({ status: 400, code: 'SIGNATURE_INVALID' })
    expect(await refused(complete(foureyes, { pin: OP_PIN, second_signer: { badge: 'QA-0042', pin: '000001' } }))).toEqual({ status: 400, code: 'SECOND_SIGNER_INVALID' })
    expect(await refused(complete(foureyes, { pin: OP_PIN, second_signer: { badge: 'NO-SUCH-BADGE', pin: QA_PIN } }))).toEqual({ status: 400, code: 'SECOND_SIGNER_INVALID' })
    expect(await refused(complete(foureyes, { pin: OP_PIN, second_signer: { badge: 'OP-0007', pin: OP_PIN } }))).toEqual({ status: 422, code: 'SECOND_SIGNER_SAME_PERSON' })
    expect(await stepDone(foureyes)).toBe(false)
    expect(await signatureCount()).toBe(before)
  })

  test('the operator signs with the PIN and the quality second signer with badge and PIN: two signatures', async () => {
    const res = await h.request('POST', `/api/batch/${batch}/steps/${foureyes}/complete`, {
      token: op.token,
      body: { signature: { pin: OP_PIN, second_signer: { badge: 'QA-0042', pin: QA_PIN } }, idempotency_key: newKey() },
    })
    expect(res.status).toBe(200)
    expect(await stepDone(foureyes)).toBe(true)
    const list = await listWorkOrderSignatures(h.svc.db, setup.workOrderKey)
    expect(list.map((s) => [s.role, s.user_key, s.meaning, s.valid])).toEqual([
      ['signer', op.key, 'verified', true],
      ['second_signer', quality.key, 'verified', true],
    ])
  })

  test('a password and a PIN together, or a badge with a password, are malformed', async () => {
    const send = (signature: unknown) =>
      h.request('POST', `/api/batch/${batch}/steps/${single}/complete`, { token: op.token, body: { signature, idempotency_key: newKey() } })
    expect(code(await send({ password: PASSWORD, pin: OP_PIN }))).toEqual([400, 'INVALID_INPUT'])
    expect(code(await send({ pin: OP_PIN, second_signer: { badge: 'QA-0042', password: PASSWORD } }))).toEqual([400, 'INVALID_INPUT'])
    expect(await stepDone(single)).toBe(false)
  })

  test('with the setting off, signing with a PIN or a badge is refused (422) and the password still signs', async () => {
    expect(code(await settings({ pin_signing: false }))).toEqual([200, undefined])
    expect(await refused(complete(single, { pin: OP_PIN }))).toEqual({ status: 422, code: 'PIN_SIGNING_DISABLED' })
    expect(await stepDone(single)).toBe(false)
    await complete(single, { password: PASSWORD })
    expect(await stepDone(single)).toBe(true)
    expect(code(await settings({ pin_signing: true }))).toEqual([200, undefined])
  })

  test('wrong PINs count in the sign-in throttle: the 6th attempt waits, and so does the login; then the PIN signs', async () => {
    expect(code(await setPin(guesser, '605813'))).toEqual([200, undefined])
    const s = await makeSetup(h.svc.db, {
      quantity: 1,
      operator: guesser.key,
      phases: [{ steps: [{ type: 'instruction', signature: { meaning: 'approved', second_signer: null } }] }],
    })
    const out = (await startJobs(h.svc, guesser.actor, { job_keys: [s.jobs[0]![0]!], idempotency_key: newKey() })).jobs[0]!
    const attempt = (pin: string) => complete(s.phases[0]!.steps[0]!._key, { pin }, guesser, out.batch!._key)
    for (let i = 0; i < 5; i++) expect(await refused(attempt(`90000${i}`))).toEqual({ status: 400, code: 'SIGNATURE_INVALID' })
    expect(await refused(attempt('605813'))).toEqual({ status: 429, code: 'LOGIN_THROTTLED' })
    const login = await h.request('POST', '/api/login', { body: { username: 'op.pinguess', password: PASSWORD } })
    expect(code(login)).toEqual([429, 'LOGIN_THROTTLED'])
    h.clock.advance(2_000)
    expect((await attempt('605813')).completed_batch?._key).toBe(out.batch!._key)
  })

  test('an unknown badge is throttled too: guessing badges waits like guessing a username', async () => {
    const s = await makeSetup(h.svc.db, {
      quantity: 1,
      operator: op.key,
      phases: [{ steps: [{ type: 'instruction', signature: { meaning: 'approved', second_signer: 'quality' } }] }],
    })
    const out = (await startJobs(h.svc, op.actor, { job_keys: [s.jobs[0]![0]!], idempotency_key: newKey() })).jobs[0]!
    const attempt = () => complete(s.phases[0]!.steps[0]!._key, { pin: OP_PIN, second_signer: { badge: 'GUESS-1', pin: QA_PIN } }, op, out.batch!._key)
    for (let i = 0; i < 5; i++) expect(await refused(attempt())).toEqual({ status: 400, code: 'SECOND_SIGNER_INVALID' })
    expect(await refused(attempt())).toEqual({ status: 429, code: 'LOGIN_THROTTLED' })
  })

  test('an admin clears a PIN (and a password reset does too): the PIN no longer signs', async () => {
    const cleared = await h.request('POST', `/api/user/${quality.key}/clear-pin`, { token: admin })
    expect([cleared.status, cleared.body.detail.has_pin]).toEqual([200, false])
    expect(code(await h.request('POST', `/api/user/${quality.key}/clear-pin`, { token: op.token }))).toEqual([403, 'NOT_AUTHORISED'])
    const reset = await h.request('POST', `/api/user/${op.key}/reset-password`, { token: admin })
    expect(reset.status).toBe(200)
    const row = await h.svc.db.selectFrom('users').select('pin_hash').where('id', '=', op.key).executeTakeFirstOrThrow()
    expect(row.pin_hash).toBeNull()
  })
})
