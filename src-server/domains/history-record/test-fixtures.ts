import type { Harness } from '../../test/harness'
import { makeOperator, makeSetup, newKey, type Operator } from '../execution/test-fixtures'
import { startJobs } from '../execution/start-pause'
import { completeStep } from '../execution/steps'
import { makeIssueType } from '../issues/test-fixtures'
import { actOnIssue, createIssue } from '../issues/service'
import { createMovement } from '../movements/service'
import { createPosition } from '../positions/service'
import { createSerial, linkSerials } from '../serials/service'

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
}

export async function makeRecordWorld(h: Harness, prefix: string): Promise<RecordWorld> {
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
    serialKey = await createSerial(trx, op.actor, { code: serialCode, product_id: s.productKey, work_order_id: s.workOrderKey, job_id: s.jobs[0]![0]!, batch_id: batches[0]!, phase_id: phase.key }, now)
    const child = await createSerial(trx, op.actor, { code: componentCode, product_id: line.item_id }, now)
    await linkSerials(trx, op.actor, { parent_id: serialKey, child_id: child, phase_id: phase.key, bom_line_id: line.id, batch_id: batches[0]! }, now)
  })

  const type = await makeIssueType(db, `${prefix.toUpperCase()}-NC`)
  const issue = await createIssue(h.svc, op.actor, { type_key: type, title: 'Vite spanata', description: 'sostituita', job_key: s.jobs[0]![0]!, batch_key: batches[0]! })
  await actOnIssue(h.svc, quality.actor, issue._key, 'close')

  const admin = { userId: op.key, sessionId: null, scope: 'admin warehouse', tokenId: null }
  const store = (await createPosition(h.svc, admin, { code: `${prefix.toUpperCase()}-MAG` }))._key
  await createMovement(h.svc, admin, {
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
  }
}

/** The text pdftotext reads from a PDF (poppler-utils), with runs of spaces made one. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const proc = Bun.spawn(['pdftotext', '-layout', '-', '-'], { stdin: bytes, stdout: 'pipe', stderr: 'pipe' })
  const text = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`pdftotext failed: ${await new Response(proc.stderr).text()}`)
  return text.replace(/[ \t]+/g, ' ')
}
