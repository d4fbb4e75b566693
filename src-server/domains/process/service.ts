import { type PhaseParameters, phaseParametersProblem, withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import {
  type CopyProcessInput,
  MAX_PHASES,
  type Phase,
  type PhaseCounterChoice,
  type PhaseInput,
  type Process,
  type ProcessInput,
} from '../../../src/domains/process/process'
import { normaliseSteps, sameSteps, type Step, stepFieldKeys, stepMediaKeys, stepProblem } from '../../../src/domains/process/steps'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { type Changes, changesOf } from '../events/changes'
import { assertFieldsUsable } from '../form-fields/service'
import { assertMediaExist } from '../media/service'
import { getDefaultPhaseParameters } from '../settings/service'
import { lockProduct, productNotFound } from '../products/service'
import { selectCounterChoices, selectPhaseRows, stepKeysUsedElsewhere } from './queries'
import { invalidField } from '../../input-issues'

/**
 * A product's process (SPEC 3, DOMAIN.md "Master data"): ordered phases, each made from an
 * operation, in a department (optional), with its own steps, parameters, production notes and
 * print templates. Rules kept here:
 * - `PUT product/{key}/process` sends the whole ordered list. Phases with a `_key` are kept and
 *   updated (what is missing stays as it was), phases without one are added (the operation's
 *   default steps copied with new step keys, the admin's default phase parameters), phases
 *   missing from the list are removed: refused for a phase with components (409
 *   PHASE_HAS_COMPONENTS); then nothing at all is written. Only the draft is edited (revision_id
 *   null): work orders run on released revisions, which keep their own copies of the phases.
 * - A product in the trash is read-only (409 PRODUCT_IN_TRASH, the products module's lock).
 * - Step keys are unique across every process and operation: a step sent with a key used
 *   elsewhere (a pasted copy) gets a new key; a key used twice in the list is refused.
 * - A phase names the counter numbering what it produces: an existing one (422 UNKNOWN_COUNTER).
 * - Copying the process of another product appends its phases (all or the chosen ones) with new
 *   phase and step keys; bom lines are not copied.
 * Every change appends one event (PROCESS_UPDATED with what changed, PROCESS_COPIED).
 */

type StoredPhase = Omit<Phase, 'parameters'> & { product_id: string; parameters: unknown }

const toPhase = ({ product_id: _product, ...row }: StoredPhase): Phase => ({ ...row, parameters: withPhaseDefaults(row.parameters) })

/** The product's draft phases: the library edits only the draft (released revisions are frozen). */
async function readPhases(db: Db, productId: string): Promise<Phase[]> {
  const rows = await selectPhaseRows(db).where('p.product_id', '=', productId).where('p.revision_id', 'is', null).orderBy('p.position').orderBy('p.id').execute()
  return (rows as StoredPhase[]).map(toPhase)
}

/** The counters the process editor offers for a phase (library users do not read the counter library). */
export function listCounterChoices(svc: Pick<Services, 'db'>): Promise<PhaseCounterChoice[]> {
  return selectCounterChoices(svc.db).execute()
}

/** `GET product/{key}/process`. */
export async function getProcess(svc: Pick<Services, 'db'>, productKey: string): Promise<Process> {
  const product = isUuid(productKey) ? await svc.db.selectFrom('products').select('id').where('id', '=', productKey).executeTakeFirst() : undefined
  if (!product) throw productNotFound()
  return { product_key: product.id, phases: await readPhases(svc.db, product.id) }
}

const phaseLabel = (index: number) => `phase ${index + 1}`

/** The parameters a phase will have; the cross-field rule with its own code. */
function checkedParameters(index: number, parameters: PhaseParameters): PhaseParameters {
  if (phaseParametersProblem(parameters)) {
    throw badRequest('RELEASE_BATCH_QT_REQUIRED', `${phaseLabel(index)}: release_batch_qt must be > 0 when release_style is release_batch`, {
      phase: index,
    })
  }
  return parameters
}

/** The shared step rules, with the phase and step named in the message. */
function assertStepRules(index: number, steps: NonNullable<PhaseInput['steps']>) {
  const problem = stepProblem(steps)
  if (!problem) return
  const where = { phase: index, step: problem.index }
  const step = `${phaseLabel(index)}, step ${problem.index + 1}`
  const stepPath = `phases.${index}.steps.${problem.index}`
  if (problem.code === 'STEP_FIELDS_REQUIRED') throw badRequest('STEP_FIELDS_REQUIRED', `${step}: a form step needs at least one field`, where)
  if (problem.code === 'INSTRUCTION_WITH_FIELDS') throw invalidField({ path: `${stepPath}.fields`, kind: 'not_allowed', message: `${step}: an instruction step cannot have form fields` }, where)
  throw invalidField({ path: `${stepPath}._key`, kind: 'duplicate', message: `${step}: repeats the _key of another step` }, where)
}

/** Fresh keys for copied steps (an operation's defaults, another product's phases). */
const withNewKeys = (steps: readonly Step[]): Step[] => steps.map((s) => ({ ...s, _key: crypto.randomUUID() }))

/** Operations and departments the phases refer to, share-locked so they cannot vanish meanwhile. */
async function referenced(db: Db, operationKeys: string[], departmentKeys: string[]) {
  const operations = operationKeys.length
    ? await db.selectFrom('operations').select(['id', 'name', 'default_phase_steps']).where('id', 'in', operationKeys).forShare().execute()
    : []
  const departments = departmentKeys.length ? await db.selectFrom('departments').select('id').where('id', 'in', departmentKeys).forShare().execute() : []
  const opById = new Map(operations.map((o) => [o.id, o]))
  const missingOps = operationKeys.filter((k) => !opById.has(k))
  if (missingOps.length) throw unprocessable('UNKNOWN_OPERATION', `unknown operation: ${missingOps.join(', ')}`, { operations: missingOps })
  const deptIds = new Set(departments.map((d) => d.id))
  const missingDepts = departmentKeys.filter((k) => !deptIds.has(k))
  if (missingDepts.length) throw unprocessable('WRONG_DEPARTMENT_KEY', `unknown department: ${missingDepts.join(', ')}`, { departments: missingDepts })
  return opById
}

/** The counters the phases name exist; share-locked so a delete waits for this save. */
async function assertCountersExist(db: Db, phases: readonly PhaseInput[]) {
  const counterKeys = unique(phases.flatMap((p) => (p.counter_key ? [p.counter_key] : [])))
  if (counterKeys.length === 0) return
  const found = new Set((await db.selectFrom('counters').select('id').where('id', 'in', counterKeys).forShare().execute()).map((c) => c.id))
  const missing = counterKeys.filter((k) => !found.has(k))
  if (missing.length === 0) return
  const phase = phases.findIndex((p) => p.counter_key && !found.has(p.counter_key))
  throw unprocessable('UNKNOWN_COUNTER', `${phaseLabel(phase)}: unknown counter: ${missing.join(', ')}`, { counters: missing, phase })
}

const unique = <T>(xs: readonly T[]) => [...new Set(xs)]
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

type Planned = {
  _key: string
  isNew: boolean
  name: string
  operation_id: string
  department_id: string | null
  parameters: PhaseParameters
  steps: Step[]
  production_notes: string
  print_templates: string[]
  traceability_level: Phase['traceability_level']
  counter_id: string | null
}

/** `PUT product/{key}/process`: the whole ordered list of phases (see the rules above). */
export async function updateProcess(svc: Services, actor: Actor, productKey: string, input: ProcessInput): Promise<Process> {
  if (!isUuid(productKey)) throw productNotFound()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productKey)
    const current = await readPhases(trx, product.id)
    const byKey = new Map(current.map((p) => [p._key, p]))

    // Which phases stay, which go.
    const kept = new Set<string>()
    for (const [index, p] of input.phases.entries()) {
      if (p._key === undefined) continue
      if (kept.has(p._key)) throw invalidField({ path: `phases.${index}._key`, kind: 'duplicate', message: `${phaseLabel(index)} repeats the _key of another phase` }, { phase: index })
      kept.add(p._key)
    }
    const unknown = [...kept].filter((k) => !byKey.has(k))
    if (unknown.length) throw unprocessable('UNKNOWN_PHASE', `unknown phase: ${unknown.join(', ')}`, { phases: unknown })
    const removed = current.filter((p) => !kept.has(p._key))
    const blocked = removed.filter((p) => p.component_count > 0)
    if (blocked.length) {
      throw conflict('PHASE_HAS_COMPONENTS', `a phase with components cannot be deleted (${blocked.map((p) => p.name).join(', ')})`, {
        phases: blocked.map((p) => p._key),
      })
    }
    const operations = await referenced(
      trx,
      unique(input.phases.map((p) => p.operation_key)),
      unique(input.phases.flatMap((p) => (p.department_key ? [p.department_key] : []))),
    )
    await assertCountersExist(trx, input.phases)
    const defaults = input.phases.some((p) => p._key === undefined && p.parameters === undefined) ? await getDefaultPhaseParameters({ db: trx }) : null

    // What each phase will be.
    const plan: Planned[] = input.phases.map((p, index) => {
      const old = p._key ? byKey.get(p._key) : undefined
      const operation = operations.get(p.operation_key)!
      if (p.steps) assertStepRules(index, p.steps)
      const name = p.name ?? old?.name ?? ''
      return {
        _key: old?._key ?? crypto.randomUUID(),
        isNew: !old,
        name: name || operation.name,
        operation_id: p.operation_key,
        department_id: p.department_key === undefined ? (old?.department_key ?? null) : p.department_key,
        parameters: checkedParameters(index, p.parameters ?? old?.parameters ?? defaults!),
        steps: p.steps ? normaliseSteps(p.steps, () => crypto.randomUUID()) : old ? old.steps : withNewKeys(operation.default_phase_steps),
        production_notes: p.production_notes ?? old?.production_notes ?? '',
        print_templates: p.print_templates ? unique(p.print_templates) : (old?.print_templates ?? []),
        traceability_level: p.traceability_level ?? old?.traceability_level ?? 'none',
        counter_id: p.counter_key === undefined ? (old?.counter_key ?? null) : p.counter_key,
      }
    })
    if (plan.length > MAX_PHASES) throw invalidField({ path: 'phases', kind: 'max_items', limit: MAX_PHASES, message: `at most ${MAX_PHASES} phases` })

    // Step keys: unique in the list, and new to the system unless already this product's.
    const ownKeys = new Set(current.flatMap((p) => p.steps.map((s) => s._key)))
    const listed = new Map<string, number>()
    for (const [index, phase] of plan.entries()) {
      for (const [stepIndex, step] of phase.steps.entries()) {
        if (listed.has(step._key)) {
          throw invalidField(
            {
              path: `phases.${index}.steps.${stepIndex}._key`,
              kind: 'duplicate',
              message: `${phaseLabel(index)}, step ${stepIndex + 1}: repeats the _key of a step of ${phaseLabel(listed.get(step._key)!)}`,
            },
            { phase: index, step: stepIndex },
          )
        }
        listed.set(step._key, index)
      }
    }
    const foreign = await stepKeysUsedElsewhere(trx, product.id, [...listed.keys()].filter((k) => !ownKeys.has(k)))
    if (foreign.size) for (const phase of plan) phase.steps = phase.steps.map((s) => (foreign.has(s._key) ? { ...s, _key: crypto.randomUUID() } : s))

    // Fields: archived ones only where this product or the operation's defaults already use them.
    const allSteps = plan.flatMap((p) => p.steps)
    const allowArchived = new Set([
      ...stepFieldKeys(current.flatMap((p) => p.steps)),
      ...stepFieldKeys(plan.filter((p) => p.isNew).flatMap((p) => operations.get(p.operation_id)!.default_phase_steps)),
    ])
    await assertFieldsUsable(trx, stepFieldKeys(allSteps), allowArchived)
    await assertMediaExist(trx, stepMediaKeys(allSteps))

    // Write, then record what changed.
    if (removed.length) await trx.deleteFrom('product_phases').where('id', 'in', removed.map((p) => p._key)).execute()
    const added: { _key: string; name: string; operation_key: string; steps: number }[] = []
    const updated: { _key: string; name: string; changed: string[] }[] = []
    // Old and new values for the trail, `<phase>.<field>`; a phase added or removed as a whole.
    const changes: Changes = {}
    for (const [index, p] of plan.entries()) {
      const row = {
        position: index + 1,
        name: p.name,
        operation_id: p.operation_id,
        department_id: p.department_id,
        parameters: JSON.stringify(p.parameters),
        steps: JSON.stringify(p.steps),
        production_notes: p.production_notes,
        print_templates: JSON.stringify(p.print_templates),
        traceability_level: p.traceability_level,
        counter_id: p.counter_id,
        updated_at: now,
      }
      if (p.isNew) {
        await trx.insertInto('product_phases').values({ ...row, id: p._key, product_id: product.id, created_at: now }).execute()
        added.push({ _key: p._key, name: p.name, operation_key: p.operation_id, steps: p.steps.length })
        continue
      }
      const old = byKey.get(p._key)!
      const changed = [
        old.name !== p.name && 'name',
        old.operation_key !== p.operation_id && 'operation',
        old.department_key !== p.department_id && 'department',
        !same(old.parameters, p.parameters) && 'parameters',
        !sameSteps(old.steps, p.steps) && 'steps',
        old.production_notes !== p.production_notes && 'production_notes',
        !same(old.print_templates, p.print_templates) && 'print_templates',
        old.traceability_level !== p.traceability_level && 'traceability_level',
        old.counter_key !== p.counter_id && 'counter',
      ].filter((c): c is string => Boolean(c))
      if (changed.length === 0 && old.position === index + 1) continue
      await trx.updateTable('product_phases').set(row).where('id', '=', p._key).execute()
      if (changed.length) updated.push({ _key: p._key, name: p.name, changed })
      const before = { ...old, operation: old.operation_key, department: old.department_key, counter: old.counter_key }
      const after = { ...p, operation: p.operation_id, department: p.department_id, counter: p.counter_id }
      for (const [field, c] of Object.entries(changesOf(before, after, changed))) changes[`${old.name}.${field}`] = c
    }
    const keptBefore = current.filter((p) => kept.has(p._key)).map((p) => p._key)
    const keptAfter = plan.filter((p) => !p.isNew).map((p) => p._key)
    const reordered = !same(keptBefore, keptAfter)
    if (added.length === 0 && removed.length === 0 && updated.length === 0 && !reordered) return
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', product.id).execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'PROCESS_UPDATED',
        subject_type: 'product',
        subject_key: product.id,
        data: {
          code: product.code,
          added,
          removed: removed.map((p) => ({ _key: p._key, name: p.name })),
          updated,
          reordered,
          phases: plan.map((p) => p._key),
          changes: {
            ...Object.fromEntries(removed.map((p) => [p.name, { from: { _key: p._key, steps: p.steps.length }, to: null }])),
            ...Object.fromEntries(added.map((p) => [p.name, { from: null, to: { _key: p._key, operation_key: p.operation_key, steps: p.steps } }])),
            ...changes,
            ...(reordered ? { order: { from: current.map((p) => p.name), to: plan.map((p) => p.name) } } : {}),
          },
        },
      },
      now,
    )
  })
  return getProcess(svc, productKey)
}

/**
 * `POST product/{key}/process/copy`: the phases of another product (all, or the chosen ones in
 * their order there) appended after this product's phases, with new phase and step keys.
 */
export async function copyProcess(svc: Services, actor: Actor, productKey: string, input: CopyProcessInput): Promise<Process> {
  if (!isUuid(productKey)) throw productNotFound()
  if (input.from_product_key === productKey) throw badRequest('PROCESS_COPY_SELF', 'cannot copy the process of a product onto itself')
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productKey)
    const source = await trx.selectFrom('products').select(['id', 'code']).where('id', '=', input.from_product_key).executeTakeFirst()
    if (!source) throw unprocessable('UNKNOWN_PRODUCT', `unknown product: ${input.from_product_key}`, { products: [input.from_product_key] })
    const sourcePhases = await readPhases(trx, source.id)
    let chosen = sourcePhases
    if (input.phase_keys) {
      const wanted = new Set(input.phase_keys)
      const known = new Set(sourcePhases.map((p) => p._key))
      const unknown = [...wanted].filter((k) => !known.has(k))
      if (unknown.length) {
        throw unprocessable('UNKNOWN_PHASE', `unknown phase of product ${source.code}: ${unknown.join(', ')}`, { phases: unknown })
      }
      chosen = sourcePhases.filter((p) => wanted.has(p._key))
    }
    if (chosen.length === 0) throw unprocessable('PROCESS_COPY_EMPTY', `product ${source.code} has no phases to copy`)
    const current = await trx.selectFrom('product_phases').select('id').where('product_id', '=', product.id).where('revision_id', 'is', null).forUpdate().execute()
    if (current.length + chosen.length > MAX_PHASES) throw invalidField({ path: 'phases', kind: 'max_items', limit: MAX_PHASES, message: `at most ${MAX_PHASES} phases` })
    const rows = chosen.map((p, i) => ({
      id: crypto.randomUUID(),
      product_id: product.id,
      position: current.length + i + 1,
      name: p.name,
      operation_id: p.operation_key,
      department_id: p.department_key,
      parameters: JSON.stringify(p.parameters),
      steps: JSON.stringify(withNewKeys(p.steps)),
      production_notes: p.production_notes,
      print_templates: JSON.stringify(p.print_templates),
      traceability_level: p.traceability_level,
      counter_id: p.counter_key,
      created_at: now,
      updated_at: now,
    }))
    await trx.insertInto('product_phases').values(rows).execute()
    const copies = rows.map((r, i) => ({ _key: r.id, from: chosen[i]!._key, name: r.name }))
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', product.id).execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'PROCESS_COPIED',
        subject_type: 'product',
        subject_key: product.id,
        data: { code: product.code, from_product_key: source.id, from_code: source.code, whole: !input.phase_keys, phases: copies },
      },
      now,
    )
  })
  return getProcess(svc, productKey)
}
