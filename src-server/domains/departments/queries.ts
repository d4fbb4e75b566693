import { sql } from 'kysely'
import type { DepartmentRow } from '../../../src/domains/departments/schemas'
import type { Db } from '../../db/connect'

/** Departments as the API shows them, with how many users (archived too) are assigned. */
export function selectDepartmentRows(db: Db) {
  return db
    .selectFrom('departments as d')
    .select((eb) => [
      'd.id as _key',
      'd.code',
      'd.name',
      sql<number>`(extract(epoch from d.created_at) * 1000)::float8`.as('created_at'),
      eb
        .selectFrom('users as u')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('u.department_id', '=', 'd.id')
        .as('user_count'),
    ])
    .$castTo<DepartmentRow>()
}

export async function departmentWithCode(db: Db, code: string, exceptId?: string) {
  let q = db.selectFrom('departments').select('id').where(sql`lower(code)`, '=', code.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  return q.executeTakeFirst()
}
