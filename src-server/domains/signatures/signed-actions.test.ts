import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { SignedAction } from '../../../src/domains/signatures/schemas'
import { adminToken, appCode, tableCounts } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeIssueType } from '../issues/test-fixtures'
import { makeProduct as makeJobProduct, makeWorkOrder, setJobState } from '../jobs/test-fixtures'
import { createPosition } from '../positions/service'
import { createOperation, insertProduct } from '../process/test-helpers'
import { createSerial } from '../serials/service'
import { makeProduct } from '../work-orders/test-fixtures'
import { workOrderHistory } from '../work-orders/history'
import { createMovement } from '../movements/service'
import { verifySignature } from './service'

/**
 * Actions the settings can require a signature for (issue 22, docs/signatures.md "Signed
 * actions"), each through its REST route: off by default (works as before); when required,
 * refused without or with a wrong password and nothing changed; signed, one row with a hash that
 * verifies, and an event in the chain.
 */
describe('signatures: actions signed where the settings require it', () => {
  const h = useHarness()
  const PASSWORD = 'password-123'
  let admin: string
  type User = { key: string; token: string }
  const users: Record<string, User> = {}

  beforeAll(async () => {
    admin = await adminToken(h)
    for (const [name, scope] of [
      ['library', 'library'],
      ['quality', 'quality'],
      ['trace', 'traceability'],
      ['production', 'production'],
      ['warehouse', 'warehouse'],
    ] as const) {
      users[name] = await userWithScope(h, `signed.${name}`, scope)
      await h.svc.db.updateTable('users').set({ name: 'Mario', surname: name }).where('id', '=', users[name]!.key).execute()
    }
  }, 60_000)

  const require = (action: SignedAction, meaning: 'performed' | 'verified' | 'approved' | null) =>
    h.request('PATCH', '/api/settings', { token: admin, body: { [`signature_${action}`]: meaning } })
  const signaturesOf = (type: string) => h.svc.db.selectFrom('signatures').selectAll().where('subject_type', '=', type).execute()
  const signedEvents = (subjectKey: string) =>
    h.svc.db.selectFrom('events').select(['event_type', 'data']).where('event_type', '=', 'RECORD_SIGNED').where('subject_key', '=', subjectKey).execute()

  /**
   * Refused without a signature and with a wrong password, with nothing written (row counts and
   * the record as it was), then accepted with the right password.
   */
  async function refusedThenSigned(call: (body: Record<string, unknown>) => Promise<{ status: number; body: any }>, record: () => Promise<unknown>, ok: number) {
    const before = [await tableCounts(h), await record()]
    const none = await call({})
    expect([none.status, appCode(none.body)]).toEqual([422, 'SIGNATURE_REQUIRED'])
    const wrong = await call({ signature: { password: 'not-my-password' } })
    expect([wrong.status, appCode(wrong.body)]).toEqual([400, 'SIGNATURE_INVALID'])
    expect([await tableCounts(h), await record()]).toEqual(before)
    const signed = await call({ signature: { password: PASSWORD } })
    expect(signed.status).toBe(ok)
    return signed
  }

  async function expectValid(signatureKey: string, subjectType: string) {
    const view = await verifySignature(h.svc.db, signatureKey)
    expect(view).toMatchObject({ subject_type: subjectType, valid: true })
    return view!
  }

  test('setting: off by default, admin only, each action its own meaning', async () => {
    const settings = (await h.request('GET', '/api/settings', { token: users.quality!.token })).body.detail
    expect(settings).toMatchObject({
      signature_revision_release: null,
      signature_critical_issue_close: null,
      signature_serial_correction: null,
      signature_job_correction: null,
      signature_movement_revert: null,
    })
    expect((await h.request('PATCH', '/api/settings', { token: users.quality!.token, body: { signature_revision_release: 'approved' } })).status).toBe(403)
    const bad = await h.request('PATCH', '/api/settings', { token: admin, body: { signature_revision_release: 'signed' } })
    expect(bad.status).toBe(400)
  })

  test('revision release: unsigned while off; required, refused then signed with the hash of the revision', async () => {
    const operation = (await createOperation(h, admin, 'Firma rilascio'))._key
    const product = await insertProduct(h, 'SIGN-REV')
    const put = (title: string) =>
      h.request('PUT', `/api/product/${product}/process`, { token: users.library!.token, body: { phases: [{ operation_key: operation, name: 'Fase', steps: [{ type: 'instruction', title }] }] } })
    const release = (body: Record<string, unknown>) => h.request('POST', `/api/product/${product}/revision`, { token: users.library!.token, body: { reason: 'Emissione', ...body } })
    expect((await put('Primo')).status).toBe(200)
    const first = await release({})
    expect(first.status).toBe(201)
    expect(first.body.detail.signatures).toEqual([])

    expect((await require('revision_release', 'approved')).status).toBe(200)
    expect((await put('Secondo')).status).toBe(200)
    const revisions = () => h.svc.db.selectFrom('product_revisions').select('number').where('product_id', '=', product).execute()
    const signed = await refusedThenSigned(release, revisions, 201)
    const [line] = signed.body.detail.signatures
    expect(line).toMatchObject({ subject_type: 'revision', subject_key: signed.body.detail._key, meaning: 'approved', full_name: 'Mario library', valid: true })
    await expectValid(line._key, 'revision')
    expect(await signedEvents(product)).toMatchObject([{ data: { signed_type: 'revision', signature_key: line._key, meaning: 'approved' } }])
    // The list shows it under revision 2, and nothing under revision 1.
    const list = (await h.request('GET', `/api/product/${product}/revision`, { token: users.library!.token })).body.detail.revisions
    expect(list.map((r: { number: number; signatures: unknown[] }) => [r.number, r.signatures.length])).toEqual([
      [2, 1],
      [1, 0],
    ])
    // A released revision changed behind the database's back: the signature says so.
    await sql`alter table product_revisions disable trigger user`.execute(h.svc.db)
    try {
      await sql`update product_revisions set reason = 'Cambiata' where id = ${signed.body.detail._key}`.execute(h.svc.db)
    } finally {
      await sql`alter table product_revisions enable trigger user`.execute(h.svc.db)
    }
    expect((await verifySignature(h.svc.db, line._key))!.valid).toBe(false)
    await require('revision_release', null)
  })

  test('critical issue close: a non-critical one closes unsigned; a critical one is refused, then signed', async () => {
    const critical = await makeIssueType(h.svc.db, 'SIGN-CRIT', { critical: true })
    const plain = await makeIssueType(h.svc.db, 'SIGN-PLAIN')
    const open = async (type: string) =>
      (await h.request('POST', '/api/issue', { token: users.quality!.token, body: { type_key: type, title: 'Cricca' } })).body.detail._key as string
    const close = (key: string) => (body: Record<string, unknown>) => h.request('POST', `/api/issue/${key}/action`, { token: users.quality!.token, body: { action: 'close', ...body } })
    const issueState = (key: string) => h.svc.db.selectFrom('issues').select(['state', 'closed_at']).where('id', '=', key).executeTakeFirstOrThrow()

    const before = await open(critical)
    expect((await close(before)({})).status).toBe(200)

    await require('critical_issue_close', 'verified')
    const notCritical = await open(plain)
    expect((await close(notCritical)({})).status).toBe(200)
    const key = await open(critical)
    const signed = await refusedThenSigned(close(key), () => issueState(key), 200)
    expect(signed.body.detail.state).toBe('closed')
    const [line] = signed.body.detail.signatures
    expect(line).toMatchObject({ subject_type: 'issue', subject_key: key, meaning: 'verified', valid: true })
    await expectValid(line._key, 'issue')
    expect(await signedEvents(key)).toHaveLength(1)
    // Reopened: the issue signed as closed is no longer what it is.
    expect((await h.request('POST', `/api/issue/${key}/action`, { token: users.quality!.token, body: { action: 'reopen' } })).status).toBe(200)
    const reopened = (await h.request('GET', `/api/issue/${key}`, { token: users.quality!.token })).body.detail
    expect(reopened.signatures.map((s: { valid: boolean }) => s.valid)).toEqual([false])
    await require('critical_issue_close', null)
  })

  test('serial correction: unsigned while off; required, refused then signed, shown on the serial with its event', async () => {
    const product = await makeProduct(h.svc.db, { code: 'SIGN-SER' })
    const actor = { userId: users.trace!.key, sessionId: null, scope: 'traceability', tokenId: null }
    const serial = await h.svc.db.transaction().execute((trx) => createSerial(trx, actor, { code: 'SIGN-SN-1', product_id: product.key, data: { lotto: 'L1' } }, h.clock.now()))
    const patch = (lotto: string) => (body: Record<string, unknown>) =>
      h.request('PATCH', `/api/serial/${serial}`, { token: users.trace!.token, body: { data: { lotto }, reason: 'lotto errato', ...body } })
    expect((await patch('L2')({})).status).toBe(200)

    await require('serial_correction', 'performed')
    const data = async () => (await h.svc.db.selectFrom('serials').select('data').where('id', '=', serial).executeTakeFirstOrThrow()).data
    await refusedThenSigned(patch('L3'), data, 200)
    const detail = (await h.request('GET', `/api/serial/${serial}`, { token: users.trace!.token })).body.detail
    expect(detail.signatures).toHaveLength(1)
    const [line] = detail.signatures
    const corrected = detail.history.find((e: { event_type: string; data: { changes?: { data?: { to: unknown } } } }) => e.event_type === 'SERIAL_UPDATED' && (e.data.changes?.data?.to as { lotto?: string })?.lotto === 'L3')
    expect(line).toMatchObject({ subject_type: 'serial_correction', subject_key: `${serial}:${corrected._key}`, meaning: 'performed', valid: true })
    await expectValid(line._key, 'serial_correction')
    await require('serial_correction', null)
  })

  test('job correction: unsigned while off; required, refused then signed, under the correction in the work order history', async () => {
    const product = await makeJobProduct(h.svc.db, { phases: [{ name: 'Taglio' }] })
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10 })
    const job = wo.jobs[0]!
    await setJobState(h.svc.db, job, { status: 'paused', completed: 2, released: 2 }, h.clock.now())
    const update = (body: Record<string, unknown>) => h.request('POST', '/api/job/update', { token: users.production!.token, body: { job_key: job, ...body } })
    expect((await update({ action: 'update_times', time_spent_ms: 60_000 })).status).toBe(200)

    await require('job_correction', 'approved')
    const jobRow = () => h.svc.db.selectFrom('jobs').select(['completed_qt', 'time_spent_ms', 'status']).where('id', '=', job).executeTakeFirstOrThrow()
    await refusedThenSigned((body) => update({ action: 'update_times', time_spent_ms: 120_000, ...body }), jobRow, 200)
    expect((await jobRow()).time_spent_ms).toBe(120_000)
    const [row] = await signaturesOf('job_correction')
    expect(row).toMatchObject({ work_order_id: wo.id, meaning: 'approved' })
    await expectValid(row!.id, 'job_correction')
    const history = await workOrderHistory(h.svc, wo.id, { category: 'corrections' })
    const entry = history.find((e) => e.event_type === 'JOB_TIMES_UPDATED' && (e.data.time_spent_ms as { to: number }).to === 120_000)!
    expect(entry.signatures.map((s) => [s._key, s.valid])).toEqual([[row!.id, true]])
    await require('job_correction', null)
  })

  test('movement revert: refused then signed, listed under the movement', async () => {
    const actor = { userId: users.warehouse!.key, sessionId: null, scope: 'warehouse', tokenId: null }
    const item = (await makeProduct(h.svc.db, { code: 'SIGN-MOV' })).key
    const to = (await createPosition(h.svc, actor, { code: 'SIGN-POS' }))._key
    const movement = await createMovement(h.svc, actor, { product_key: item, type: 'load', to_position_key: to, quantity: 5 })
    await require('movement_revert', 'verified')
    const revert = (body: Record<string, unknown>) => h.request('POST', `/api/movement/${movement._key}/revert`, { token: users.warehouse!.token, body: { reason: 'carico errato', ...body } })
    const state = () => h.svc.db.selectFrom('movements').select(['reverted_by_id']).where('id', '=', movement._key).executeTakeFirstOrThrow()
    await refusedThenSigned(revert, state, 200)
    const list = (await h.request('GET', `/api/movement/${movement._key}/signatures`, { token: users.warehouse!.token })).body.detail
    expect(list).toMatchObject([{ subject_type: 'movement_revert', meaning: 'verified', full_name: 'Mario warehouse', valid: true }])
    expect(list[0].subject_key.startsWith(`${movement._key}:`)).toBe(true)
    expect(await signedEvents(movement._key)).toHaveLength(1)
    await require('movement_revert', null)
  })

  test('signed with a PIN where the plant allows it: a wrong PIN refused and counted in the sign-in throttle like the step case', async () => {
    const pinUser = await userWithScope(h, 'signed.pin', 'warehouse')
    await h.svc.db.updateTable('users').set({ name: 'Pia', surname: 'Nobili' }).where('id', '=', pinUser.key).execute()
    const actor = { userId: pinUser.key, sessionId: null, scope: 'warehouse', tokenId: null }
    const item = (await makeProduct(h.svc.db, { code: 'SIGN-PIN' })).key
    const to = (await createPosition(h.svc, actor, { code: 'SIGN-PIN-POS' }))._key
    const movements = await Promise.all([1, 2].map((q) => createMovement(h.svc, actor, { product_key: item, type: 'load', to_position_key: to, quantity: q })))
    const revert = (key: string, signature: Record<string, unknown>) =>
      h.request('POST', `/api/movement/${key}/revert`, { token: pinUser.token, body: { reason: 'carico errato', signature } })
    const code = (res: { status: number; body: any }) => [res.status, appCode(res.body)]
    const reverted = async (key: string) => (await h.svc.db.selectFrom('movements').select('reverted_by_id').where('id', '=', key).executeTakeFirstOrThrow()).reverted_by_id
    await require('movement_revert', 'performed')

    // While the plant does not allow PINs: refused, whatever the PIN.
    expect(code(await revert(movements[0]!._key, { pin: '605813' }))).toEqual([422, 'PIN_SIGNING_DISABLED'])
    expect((await h.request('PATCH', '/api/settings', { token: admin, body: { pin_signing: true } })).status).toBe(200)
    try {
      // No PIN set yet: a PIN signs nothing.
      expect(code(await revert(movements[0]!._key, { pin: '605813' }))).toEqual([400, 'SIGNATURE_INVALID'])
      const set = await h.request('POST', '/api/pin', { token: pinUser.token, body: { current_password: PASSWORD, new_pin: '605813' } })
      expect(set.status).toBe(200)

      // Signed with the PIN: one signature row that verifies.
      const before = await tableCounts(h)
      const wrong = await revert(movements[0]!._key, { pin: '000001' })
      expect([...code(wrong), wrong.body.detail.credential]).toEqual([400, 'SIGNATURE_INVALID', 'pin'])
      expect([await tableCounts(h), await reverted(movements[0]!._key)]).toEqual([before, null])
      expect((await revert(movements[0]!._key, { pin: '605813' })).status).toBe(200)
      expect(await reverted(movements[0]!._key)).not.toBeNull()
      const list = (await h.request('GET', `/api/movement/${movements[0]!._key}/signatures`, { token: pinUser.token })).body.detail
      expect(list).toMatchObject([{ subject_type: 'movement_revert', meaning: 'performed', full_name: 'Pia Nobili', user_key: pinUser.key, valid: true }])
      await expectValid(list[0]._key, 'movement_revert')

      // Wrong PINs count in the sign-in throttle: the 6th attempt waits even with the right PIN, and so does the login.
      for (let i = 0; i < 5; i++) expect(code(await revert(movements[1]!._key, { pin: `90000${i}` }))).toEqual([400, 'SIGNATURE_INVALID'])
      expect(code(await revert(movements[1]!._key, { pin: '605813' }))).toEqual([429, 'LOGIN_THROTTLED'])
      expect(code(await h.request('POST', '/api/login', { body: { username: 'signed.pin', password: PASSWORD } }))).toEqual([429, 'LOGIN_THROTTLED'])
      expect(await reverted(movements[1]!._key)).toBeNull()
      h.clock.advance(2_000)
      expect((await revert(movements[1]!._key, { pin: '605813' })).status).toBe(200)
    } finally {
      await h.request('PATCH', '/api/settings', { token: admin, body: { pin_signing: false } })
      await require('movement_revert', null)
    }
  })
})

