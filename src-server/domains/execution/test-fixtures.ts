import type { FieldType } from '../../../src/domains/form-fields/schemas'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../../../src/domains/process/phase-parameters'
import type { Step, StepSignature } from '../../../src/domains/process/steps'
import type { QuantityPer } from '../../../src/domains/products/bom'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { newTestRevision } from '../../test/revisions'
import { type Harness, userWithScope } from '../../test/harness'

/**
 * Execution fixtures written straight into the tables with Kysely (no dependency on the
 * library, work order or job services): a product with phases (parameters, steps, form fields,
 * bom), a work order with its material rows (phase 1 released_in_qt = the planned quantity, as
 * the work order service does) and jobs per phase.
 */

export type FieldSpec = { name?: string; type: FieldType; mandatory?: boolean; multiple?: boolean; options?: string[] }
export type StepSpec = ({ type: 'instruction'; title?: string } | { type: 'form'; title?: string; fields: FieldSpec[] }) & { signature?: StepSignature }
export type PhaseSpec = {
  name?: string
  params?: Partial<PhaseParameters>
  /** Default: an instruction step, then a form step with one mandatory text field. */
  steps?: StepSpec[]
  bom?: { quantity: number; quantity_per: QuantityPer; code?: string }[]
}

export type PhaseFixture = { key: string; steps: Step[]; fields: Record<string, string>[]; params: PhaseParameters }
export type Setup = { productKey: string; workOrderKey: string; phases: PhaseFixture[]; jobs: string[][] }

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`

const DEFAULT_STEPS: StepSpec[] = [{ type: 'instruction' }, { type: 'form', fields: [{ type: 'text', mandatory: true }] }]

async function operationId(db: Db): Promise<string> {
  const found = await db.selectFrom('operations').select('id').where('name', '=', 'Execution test operation').executeTakeFirst()
  if (found) return found.id
  const { id } = await db.insertInto('operations').values({ name: 'Execution test operation', default_phase_steps: '[]' }).returning('id').executeTakeFirstOrThrow()
  return id
}

export async function makeField(db: Db, spec: FieldSpec): Promise<string> {
  const { id } = await db
    .insertInto('form_fields')
    .values({
      name: spec.name ?? unique(`field-${spec.type}`),
      type: spec.type,
      options: JSON.stringify(spec.options ?? (spec.type === 'choice' ? ['A', 'B', 'C'] : [])),
      multiple: spec.multiple ?? false,
      mandatory: spec.mandatory ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

export async function makeComponent(db: Db, code = unique('COMP')): Promise<string> {
  const { id } = await db.insertInto('products').values({ code, metadata: '[]', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
  return id
}

/**
 * A product with the given phases, a work order of `quantity` pieces and jobs: per phase the
 * quantities in `jobs[i]` (default one job with the whole quantity) assigned to `operator`
 * (null = unassigned).
 */
export async function makeSetup(
  db: Db,
  opts: {
    phases: PhaseSpec[]
    quantity: number
    operator: string | null
    jobs?: (number | { quantity: number; operator: string | null })[][]
    /** Parameters every phase starts from (then each phase's own). */
    defaults?: Partial<PhaseParameters>
  },
): Promise<Setup> {
  const op = await operationId(db)
  const { id: productKey } = await db
    .insertInto('products')
    .values({ code: unique('PROD'), description: 'Execution test product', metadata: '[]', print_templates: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const phases: PhaseFixture[] = []
  const revision = await newTestRevision(db, productKey)
  for (const [i, spec] of opts.phases.entries()) {
    const fields: Record<string, string>[] = []
    const steps: Step[] = []
    for (const [s, stepSpec] of (spec.steps ?? DEFAULT_STEPS).entries()) {
      const fieldKeys: Record<string, string> = {}
      const keys: string[] = []
      if (stepSpec.type === 'form') {
        for (const [f, field] of stepSpec.fields.entries()) {
          const key = await makeField(db, field)
          fieldKeys[field.name ?? `f${f}`] = key
          keys.push(key)
        }
      }
      fields.push(fieldKeys)
      steps.push({
        _key: crypto.randomUUID(),
        type: stepSpec.type,
        title: stepSpec.title ?? `Step ${s + 1}`,
        text: `Do step ${s + 1}`,
        media: [],
        fields: keys,
        print_templates: [],
        signature: stepSpec.signature ?? null,
      })
    }
    const params = { ...DEFAULT_PHASE_PARAMETERS, ...opts.defaults, ...spec.params }
    const { id } = await db
      .insertInto('product_phases')
      .values({
        product_id: productKey,
        position: i,
        name: spec.name ?? `Phase ${i + 1}`,
        operation_id: op,
        department_id: null,
        parameters: JSON.stringify(params),
        steps: JSON.stringify(steps),
        print_templates: '[]',
        revision_id: revision,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [b, line] of (spec.bom ?? []).entries()) {
      const item = await makeComponent(db, line.code)
      await db.insertInto('bom_lines').values({ product_id: productKey, phase_id: id, item_id: item, position: b, quantity: line.quantity, quantity_per: line.quantity_per, revision_id: revision }).execute()
    }
    phases.push({ key: id, steps, fields, params })
  }
  const { id: workOrderKey } = await db
    .insertInto('work_orders')
    .values({ code: unique('WO'), product_id: productKey, planned_qt: opts.quantity, revision_id: revision })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('work_order_phases')
    .values(phases.map((p, i) => ({ work_order_id: workOrderKey, phase_id: p.key, position: i + 1, released_in_qt: i === 0 ? opts.quantity : 0 })))
    .execute()
  const jobs: string[][] = []
  for (const [i, phase] of phases.entries()) {
    const specs = opts.jobs?.[i] ?? [opts.quantity]
    const keys: string[] = []
    for (const j of specs) {
      const { quantity, operator } = typeof j === 'number' ? { quantity: j, operator: opts.operator } : j
      const { id } = await db
        .insertInto('jobs')
        .values({
          work_order_id: workOrderKey,
          phase_id: phase.key,
          position: i + 1,
          quantity,
          operator_id: operator,
          step_sequence: JSON.stringify(phase.steps.map((s) => ({ _key: s._key, type: s.type }))),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      keys.push(id)
    }
    jobs.push(keys)
  }
  return { productKey, workOrderKey, phases, jobs }
}

export type Operator = { key: string; token: string; actor: Actor }

/** An operator signed in through the API (its token's session is the actor's session). */
export async function makeOperator(h: Harness, username: string, scope = 'operator'): Promise<Operator> {
  const { key, token } = await userWithScope(h, username, scope)
  return { key, token, actor: actorOf(key, token, scope) }
}

export const actorOf = (userId: string, token: string, scope = 'operator'): Actor => ({
  userId,
  sessionId: token.split('.')[0]!,
  scope,
  tokenId: null,
})

export const newKey = () => crypto.randomUUID()

export function jobRow(db: Db, key: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', key).executeTakeFirstOrThrow()
}

export function materialRows(db: Db, workOrderKey: string) {
  return db.selectFrom('work_order_phases').selectAll().where('work_order_id', '=', workOrderKey).orderBy('position').execute()
}

export function eventsOf(db: Db, subjectKey: string, type?: string) {
  let q = db.selectFrom('events').selectAll().where('subject_key', '=', subjectKey)
  if (type) q = q.where('event_type', '=', type)
  return q.orderBy('id').execute()
}

/** A value that fits a field (for filling forms in tests). */
export function validValue(f: { type: string; options: string[]; multiple: boolean }): unknown {
  const one = (() => {
    switch (f.type) {
      case 'text':
        return 'ok'
      case 'number':
        return 42
      case 'boolean':
        return true
      case 'ternary':
        return 'na'
      case 'choice':
        return f.options[0]
      case 'date':
        return '2026-01-05'
      case 'time':
        return '08:30'
      case 'files':
        return 'report.pdf'
      default:
        return 'x'
    }
  })()
  return f.type === 'files' || (f.multiple && f.type !== 'boolean' && f.type !== 'ternary') ? [one] : one
}

/**
 * Completes every open step of a batch through the service (mandatory fields filled with valid
 * values); returns the last outcome (the batch's completion).
 */
export async function runBatch(
  svc: { db: Db; clock: { now: () => Date } },
  actor: Actor,
  batchKey: string,
  complete: typeof import('./steps').completeStep,
) {
  const steps = await svc.db.selectFrom('batch_steps').selectAll().where('batch_id', '=', batchKey).orderBy('position').execute()
  const batch = await svc.db
    .selectFrom('batches as b')
    .innerJoin('jobs as j', 'j.id', 'b.job_id')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .select('ph.steps')
    .where('b.id', '=', batchKey)
    .executeTakeFirstOrThrow()
  let last: Awaited<ReturnType<typeof complete>> | null = null
  for (const s of steps) {
    if (s.done) continue
    const def = batch.steps.find((d) => d._key === s.step_key)
    const fields = def?.fields.length ? await svc.db.selectFrom('form_fields').selectAll().where('id', 'in', def.fields).execute() : []
    const form_data = fields.map((f) => ({ field_key: f.id, value: validValue(f) as never }))
    last = await complete(svc, actor, { batch_key: batchKey, step_key: s.step_key, form_data: fields.length ? form_data : undefined, idempotency_key: newKey() })
  }
  if (!last) throw new Error('no open step in the batch')
  return last
}
