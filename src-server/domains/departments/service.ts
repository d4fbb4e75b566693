import type * as v from 'valibot'
import type { DepartmentInput, DepartmentPatch, DepartmentRow } from '../../../src/domains/departments/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { refuseIfOnlyReleased } from '../revisions/queries'
import { departmentWithCode, selectDepartmentRows } from './queries'

type Input = v.InferOutput<typeof DepartmentInput>
type Patch = v.InferOutput<typeof DepartmentPatch>

const codeTaken = () => conflict('DEPARTMENT_CODE_TAKEN', 'department code already in use')
const missing = () => notFound('NOT_FOUND', 'department not found')

async function assertCodeFree(db: Db, code: string, exceptId?: string) {
  if (await departmentWithCode(db, code, exceptId)) throw codeTaken()
}

export function listDepartments(svc: Pick<Services, 'db'>): Promise<DepartmentRow[]> {
  return selectDepartmentRows(svc.db).orderBy('d.code').execute()
}

export async function getDepartment(svc: Pick<Services, 'db'>, key: string): Promise<DepartmentRow> {
  const row = await selectDepartmentRows(svc.db).where('d.id', '=', key).executeTakeFirst()
  if (!row) throw missing()
  return row
}

/** `POST department` (admin): code unique ignoring case. */
export async function createDepartment(svc: Services, actor: Actor, input: Input): Promise<DepartmentRow> {
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, input.code)
      const { id } = await trx
        .insertInto('departments')
        .values({ code: input.code, name: input.name, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(
        trx,
        actor,
        { event_type: 'DEPARTMENT_CREATED', subject_type: 'department', subject_key: id, data: { code: input.code, name: input.name } },
        now,
      )
      return id
    })
    return getDepartment(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
}

/** `PATCH department/{key}` (admin): rename or recode; the event lists what changed. */
export async function updateDepartment(svc: Services, actor: Actor, key: string, patch: Patch): Promise<DepartmentRow> {
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('departments').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!current) throw missing()
      const changes: Record<string, { from: string; to: string }> = {}
      for (const f of ['code', 'name'] as const) {
        const to = patch[f]
        if (to !== undefined && to !== current[f]) changes[f] = { from: current[f], to }
      }
      if (Object.keys(changes).length === 0) return
      if (changes.code) await assertCodeFree(trx, changes.code.to, key)
      await trx
        .updateTable('departments')
        .set(Object.fromEntries(Object.entries(changes).map(([f, c]) => [f, c.to])))
        .where('id', '=', key)
        .execute()
      await appendEvent(trx, actor, { event_type: 'DEPARTMENT_UPDATED', subject_type: 'department', subject_key: key, data: { changes } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
  return getDepartment(svc, key)
}

/** `DELETE department/{key}` (admin): refused while any user (archived ones too) is assigned to it. */
export async function deleteDepartment(svc: Services, actor: Actor, key: string): Promise<void> {
  const now = svc.clock.now()
  const inUse = (users: number) =>
    conflict('DEPARTMENT_IN_USE', 'the department is assigned to users and cannot be deleted', { users })
  try {
    await svc.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('departments').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!current) throw missing()
      const { n } = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('department_id', '=', key)
        .executeTakeFirstOrThrow()
      if (Number(n) > 0) throw inUse(Number(n))
      // Product phases belong to a department too (ON DELETE RESTRICT).
      const phases = await trx
        .selectFrom('product_phases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('department_id', '=', key)
        .executeTakeFirstOrThrow()
      if (Number(phases.n) > 0) {
        await refuseIfOnlyReleased(trx, 'department_id', key)
        throw conflict('DEPARTMENT_IN_USE', 'the department is used by product phases and cannot be deleted', { phases: Number(phases.n) })
      }
      await trx.deleteFrom('departments').where('id', '=', key).execute()
      await appendEvent(
        trx,
        actor,
        { event_type: 'DEPARTMENT_DELETED', subject_type: 'department', subject_key: key, data: { code: current.code, name: current.name } },
        now,
      )
    })
  } catch (e) {
    if (isForeignKeyViolation(e)) throw inUse(1)
    throw e
  }
}
