import type { SignedAction } from '../../../src/domains/signatures/schemas'
import type { SignatureMeaning } from '../../../src/domains/process/steps'
import { adminToken } from '../../test/fixtures'
import type { Harness } from '../../test/harness'
import { makeOperator, makeSetup, newKey, type Operator } from '../execution/test-fixtures'
import { startJobs } from '../execution/start-pause'
import { completeStep } from '../execution/steps'
import { makeIssueType } from '../issues/test-fixtures'
import { actOnIssue, createIssue } from '../issues/service'
import { updateJob } from '../jobs/corrections'
import { createMovement, revertMovement } from '../movements/service'
import { createPosition } from '../positions/service'
import { createSerial, editSerial, linkSerials } from '../serials/service'
import { signRecord } from '../signatures/actions'

/**
 * A work order whose record has everything in it: one phase (an instruction, then a form step
 * with a torque value), two batches of one piece run by an operator through the execution
 * service, a serial made in batch 1 with a component serial fitted, an issue on batch 1 closed by
 * quality, and a load movement of the component linked to the work order and batch 1.
 */
export type RecordWorld = {
  op: Operator
  quality: Operator
  productKey: string
  productCode: string
  workOrderKey: string
  workOrderCode: string
  batches: string[]
  serialKey: string
  serialCode: string
  componentCode: string
  componentProduct: string
  issueCode: string
  jobKey: string
  movementKey: string
}

export async function makeRecordWorld(h: Harness, prefix: string, opts: { serialData?: Record<string, unknown> } = {}): Promise<RecordWorld> {
  const db = h.svc.db
  const op = await makeOperator(h, `${prefix}.op`)
  const quality = await makeOperator(h, `${prefix}.quality`, 'quality')
  await db.updateTable('users').set({ name: 'Mario', surname: 'Rossi' }).where('id', '=', op.key).execute()
  const s = await makeSetup(db, {
    quantity: 2,
    operator: op.key,
    defaults: { production_batch_qt: 1 },
    phases: [
      {
        name: 'Montaggio',
        steps: [
          { type: 'instruction', title: 'Controllo visivo' },
          { type: 'form', title: 'Serraggio viti', fields: [{ name: `Coppia ${prefix}`, type: 'number', mandatory: true }] },
        ],
        bom: [{ quantity: 1, quantity_per: 'item', code: `${prefix.toUpperCase()}-VITE` }],
      },
    ],
  })
  const phase = s.phases[0]!
  // A code as the app makes them (WO and digits), so the record is found by its visible code too.
  await db.updateTable('work_orders').set({ code: `WO${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}` }).where('id', '=', s.workOrderKey).execute()
  const [instruction, form] = phase.steps.map((x) => x._key) as [string, string]
  const field = phase.fields[1]![`Coppia ${prefix}`]!
  const started = await startJobs(h.svc, op.actor, { job_keys: [s.jobs[0]![0]!], idempotency_key: newKey() })
  const batches: string[] = []
  let batch = started.jobs[0]!.batch!._key
  for (const torque of [12.5, 13]) {
    batches.push(batch)
    await completeStep(h.svc, op.actor, { batch_key: batch, step_key: instruction, idempotency_key: newKey() })
    const out = await completeStep(h.svc, op.actor, { batch_key: batch, step_key: form, form_data: [{ field_key: field, value: torque }], idempotency_key: newKey() })
    if (out.batch) batch = out.batch._key
  }
  const product = await db.selectFrom('products').select('code').where('id', '=', s.productKey).executeTakeFirstOrThrow()
  const wo = await db.selectFrom('work_orders').select('code').where('id', '=', s.workOrderKey).executeTakeFirstOrThrow()
  const line = await db.selectFrom('bom_lines').select(['id', 'item_id']).where('phase_id', '=', phase.key).executeTakeFirstOrThrow()

  const serialCode = `${prefix.toUpperCase()}-SN-1`
  const componentCode = `${prefix.toUpperCase()}-VITE-SN-7`
  let serialKey = ''
  await db.transaction().execute(async (trx) => {
    const now = h.clock.now()
    serialKey = await createSerial(
      trx,
      op.actor,
      { code: serialCode, product_id: s.productKey, work_order_id: s.workOrderKey, job_id: s.jobs[0]![0]!, batch_id: batches[0]!, phase_id: phase.key, ...(opts.serialData ? { data: opts.serialData } : {}) },
      now,
    )
    const child = await createSerial(trx, op.actor, { code: componentCode, product_id: line.item_id }, now)
    await linkSerials(trx, op.actor, { parent_id: serialKey, child_id: child, phase_id: phase.key, bom_line_id: line.id, batch_id: batches[0]! }, now)
  })

  const type = await makeIssueType(db, `${prefix.toUpperCase()}-NC`)
  const issue = await createIssue(h.svc, op.actor, { type_key: type, title: 'Vite spanata', description: 'sostituita', job_key: s.jobs[0]![0]!, batch_key: batches[0]! })
  await actOnIssue(h.svc, quality.actor, issue._key, 'close')

  const admin = { userId: op.key, sessionId: null, scope: 'admin warehouse', tokenId: null }
  const store = (await createPosition(h.svc, admin, { code: `${prefix.toUpperCase()}-MAG` }))._key
  const movement = await createMovement(h.svc, admin, {
    type: 'load',
    product_key: line.item_id,
    to_position_key: store,
    quantity: 1,
    serial: componentCode,
    work_order_key: s.workOrderKey,
    batch_key: batches[0]!,
  })
  const component = await db.selectFrom('products').select('code').where('id', '=', line.item_id).executeTakeFirstOrThrow()
  return {
    op,
    quality,
    productKey: s.productKey,
    productCode: product.code,
    workOrderKey: s.workOrderKey,
    workOrderCode: wo.code,
    batches,
    serialKey,
    serialCode,
    componentCode,
    componentProduct: component.code,
    issueCode: issue.code,
    jobKey: s.jobs[0]![0]!,
    movementKey: movement._key,
  }
}

/** The password of every user the fixtures make (userWithScope's). */
export const FIXTURE_PASSWORD = 'password-123'

/** The meaning each signed action is required with while the signed world is made. */
export const SIGNED_MEANINGS: Record<SignedAction, SignatureMeaning> = {
  revision_release: 'approved',
  critical_issue_close: 'verified',
  serial_correction: 'performed',
  job_correction: 'approved',
  movement_revert: 'verified',
}

export type SignedWorld = {
  quality: Operator
  production: Operator
  trace: Operator
  warehouse: Operator
  revisionKey: string
  criticalIssueKey: string
  criticalIssueCode: string
}

/**
 * Every action the settings can require a signature for, signed on a record world's work order
 * (make it with `serialData: { lotto: 'L1' }`), each by its own person with their password:
 * production corrects the job's times (1:30), a critical issue on batch 1 is closed by quality,
 * traceability corrects the serial's lotto to L2 ("lotto errato") and the warehouse reverts the
 * component's load ("carico errato"). The work order's revision was written by the fixture, not
 * released through the library, so its release is signed here as the release signs it (quality,
 * Approvato). The settings are put back to unsigned afterwards.
 */
export async function signRecordWorld(h: Harness, w: RecordWorld, prefix: string): Promise<SignedWorld> {
  const db = h.svc.db
  const named = async (who: Operator, name: string, surname: string) => {
    await db.updateTable('users').set({ name, surname }).where('id', '=', who.key).execute()
    return who
  }
  const quality = await named(w.quality, 'Giulia', 'Verdi')
  const production = await named(await makeOperator(h, `${prefix}.production`, 'production'), 'Paolo', 'Bianchi')
  const trace = await named(await makeOperator(h, `${prefix}.trace`, 'traceability'), 'Anna', 'Neri')
  const warehouse = await named(await makeOperator(h, `${prefix}.warehouse`, 'warehouse'), 'Luca', 'Gialli')
  const admin = await adminToken(h)
  const require = async (meanings: Partial<Record<SignedAction, SignatureMeaning | null>>) => {
    const body = Object.fromEntries(Object.entries(meanings).map(([action, meaning]) => [`signature_${action}`, meaning]))
    const res = await h.request('PATCH', '/api/settings', { token: admin, body })
    if (res.status !== 200) throw new Error(`settings: ${res.status} ${JSON.stringify(res.body)}`)
  }
  await require(SIGNED_MEANINGS)
  const signature = { password: FIXTURE_PASSWORD }

  const { revision_id: revisionKey } = await db.selectFrom('work_orders').select('revision_id').where('id', '=', w.workOrderKey).executeTakeFirstOrThrow()
  await db.transaction().execute((trx) =>
    signRecord(
      trx,
      quality.actor,
      { meaning: SIGNED_MEANINGS.revision_release, signers: [{ userId: quality.key, fullName: 'Giulia Verdi', role: 'signer', requiredScope: null }] },
      { type: 'revision', key: revisionKey, event: { subject_type: 'product', subject_key: w.productKey } },
      h.clock.now(),
    ),
  )
  await updateJob(h.svc, production.actor, { job_key: w.jobKey, action: 'update_times', time_spent_ms: 90_000, signature })
  const type = await makeIssueType(db, `${prefix.toUpperCase()}-CRIT`, { critical: true })
  const critical = await createIssue(h.svc, w.op.actor, { type_key: type, title: 'Cricca sul corpo', job_key: w.jobKey, batch_key: w.batches[0]! })
  await actOnIssue(h.svc, quality.actor, critical._key, 'close', signature)
  await editSerial(h.svc, trace.actor, w.serialKey, { data: { lotto: 'L2' }, reason: 'lotto errato', signature })
  await revertMovement(h.svc, warehouse.actor, w.movementKey, 'carico errato', signature)
  await require({ revision_release: null, critical_issue_close: null, serial_correction: null, job_correction: null, movement_revert: null })
  return { quality, production, trace, warehouse, revisionKey, criticalIssueKey: critical._key, criticalIssueCode: critical.code }
}

/** The text pdftotext reads from a PDF (poppler-utils), with runs of spaces made one. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const proc = Bun.spawn(['pdftotext', '-layout', '-', '-'], { stdin: bytes, stdout: 'pipe', stderr: 'pipe' })
  const text = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`pdftotext failed: ${await new Response(proc.stderr).text()}`)
  return text.replace(/[ \t]+/g, ' ')
}
