import { sql } from 'kysely'
import type { OperationCreateInput, OperationListInput, OperationPatchInput, OperationRow } from '../../../src/domains/operations/schemas'
import { normaliseSteps, sameSteps, type Step, type StepInput, stepFieldKeys, stepMediaKeys, stepProblem } from '../../../src/domains/process/steps'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { refuseIfOnlyReleased } from '../revisions/queries'
import { assertFieldsUsable } from '../form-fields/service'
import { containsPattern } from '../../db/like'
import { assertMediaExist } from '../media/service'
import { selectOperationRows } from './queries'
import { invalidField } from '../../input-issues'

const operationNotFound = () => notFound('NOT_FOUND', 'operation not found')
const nameTaken = () => conflict('OPERATION_NAME_TAKEN', 'operation name already in use')

function checkedName(name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw badRequest('OPERATION_NAME_REQUIRED', 'operation name required')
  return trimmed
}

/** Names are unique among operations, whatever the letter case. */
async function assertNameFree(db: Db, name: string, exceptId?: string) {
  let q = db.selectFrom('operations').select('id').where(sql<string>`lower(name)`, '=', name.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw nameTaken()
}

/**
 * Default steps as stored: the shared step rules (form steps need a field ...), fields that
 * exist (archived ones only where the operation already used them) and media that exist.
 */
export async function checkedSteps(db: Db, input: readonly StepInput[], previous: readonly Step[] = []): Promise<Step[]> {
  const problem = stepProblem(input)
  if (problem?.code === 'STEP_FIELDS_REQUIRED') {
    throw badRequest('STEP_FIELDS_REQUIRED', `form step ${problem.index + 1} needs at least one field`, { step: problem.index })
  }
  if (problem?.code === 'INSTRUCTION_WITH_FIELDS') {
    throw invalidField({ path: `steps.${problem.index}.fields`, kind: 'not_allowed', message: `instruction step ${problem.index + 1} cannot have form fields` }, { step: problem.index })
  }
  if (problem?.code === 'DUPLICATE_STEP_KEY') {
    throw invalidField({ path: `steps.${problem.index}._key`, kind: 'duplicate', message: `step ${problem.index + 1} repeats the _key of another step` }, { step: problem.index })
  }
  const steps = normaliseSteps(input, () => crypto.randomUUID())
  await assertFieldsUsable(db, stepFieldKeys(steps), new Set(stepFieldKeys(previous)))
  await assertMediaExist(db, stepMediaKeys(steps))
  return steps
}

export async function listOperations(svc: Services, opts: OperationListInput = {}): Promise<{ rows: OperationRow[]; total: number }> {
  const dir = opts.desc ? 'desc' : 'asc'
  let q = selectOperationRows(svc.db)
  let count = svc.db.selectFrom('operations as o').select((eb) => eb.fn.countAll<number>().as('n'))
  if (opts.search?.trim()) {
    const pattern = containsPattern(opts.search)
    q = q.where('o.name', 'ilike', pattern)
    count = count.where('o.name', 'ilike', pattern)
  }
  if (opts.sort === 'steps') q = q.orderBy(sql`jsonb_array_length(o.default_phase_steps)`, dir)
  else if (opts.sort === 'updated_at') q = q.orderBy('o.updated_at', dir)
  q = q.orderBy(sql`lower(o.name)`, !opts.sort || opts.sort === 'name' ? dir : 'asc').orderBy('o.id')
  if (opts.page_size) q = q.limit(opts.page_size).offset(((opts.page ?? 1) - 1) * opts.page_size)
  const [rows, counted] = await Promise.all([q.execute(), count.executeTakeFirstOrThrow()])
  return { rows, total: Number(counted.n) }
}

export async function getOperation(svc: Services, key: string): Promise<OperationRow> {
  const row = isUuid(key) ? await selectOperationRows(svc.db).where('o.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw operationNotFound()
  return row
}

/** `POST operation`: name required and unique; default steps checked; event OPERATION_CREATED. */
export async function createOperation(svc: Services, actor: Actor, input: OperationCreateInput): Promise<OperationRow> {
  const name = checkedName(input.name)
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, name)
      const steps = await checkedSteps(trx, input.default_phase_steps ?? [])
      const { id } = await trx
        .insertInto('operations')
        .values({ name, default_phase_steps: JSON.stringify(steps), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'OPERATION_CREATED', subject_type: 'operation', subject_key: id, data: { name, steps: steps.length } }, now)
      return id
    })
    return getOperation(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

/** `PATCH operation/{key}` with name and/or default_phase_steps (the whole ordered list). */
export async function patchOperation(svc: Services, actor: Actor, key: string, patch: OperationPatchInput): Promise<OperationRow> {
  if (!isUuid(key)) throw operationNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('operations').select(['name', 'default_phase_steps']).where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw operationNotFound()
      const set: { name?: string; default_phase_steps?: string } = {}
      const changed: string[] = []
      if (patch.name !== undefined) {
        const name = checkedName(patch.name)
        if (name !== old.name) {
          if (name.toLowerCase() !== old.name.toLowerCase()) await assertNameFree(trx, name, key)
          set.name = name
          changed.push('name')
        }
      }
      if (patch.default_phase_steps !== undefined) {
        const steps = await checkedSteps(trx, patch.default_phase_steps, old.default_phase_steps)
        if (!sameSteps(steps, old.default_phase_steps)) {
          set.default_phase_steps = JSON.stringify(steps)
          changed.push('default_phase_steps')
        }
      }
      if (changed.length === 0) return
      await trx.updateTable('operations').set({ ...set, updated_at: now }).where('id', '=', key).execute()
      await appendEvent(
        trx,
        actor,
        { event_type: 'OPERATION_UPDATED', subject_type: 'operation', subject_key: key, data: editData(changesOf(old, set, changed), { name: set.name ?? old.name }) },
        now,
      )
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
  return getOperation(svc, key)
}

/**
 * `DELETE operation/{key}`. Product phases refer to their operation with ON DELETE RESTRICT:
 * an operation used in a product process cannot go (409 OPERATION_IN_USE, SPEC 8's "contact the
 * administrator" message), and nothing is written.
 */
export async function deleteOperation(svc: Services, actor: Actor, key: string): Promise<{ _key: string }> {
  if (!isUuid(key)) throw operationNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('operations').select('name').where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw operationNotFound()
      await trx.deleteFrom('operations').where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'OPERATION_DELETED', subject_type: 'operation', subject_key: key, data: { name: old.name } }, now)
    })
  } catch (e) {
    if (isForeignKeyViolation(e)) {
      await refuseIfOnlyReleased(svc.db, 'operation_id', key)
      throw conflict('OPERATION_IN_USE', 'cannot delete: the operation is used in product processes; contact the administrator')
    }
    throw e
  }
  return { _key: key }
}
