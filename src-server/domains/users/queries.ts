import { sql } from 'kysely'
import type { Scope } from '../../../src/auth/scopes'
import type { UserRow, UserSort } from '../../../src/domains/users/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'

/** Which users a list holds; every field left out means "no filter". */
export type UserFilters = {
  search?: string
  /** true: archived only; false: not archived only. */
  archived?: boolean
  enabled?: boolean
  scope?: Scope
}

export type UserOrder = { sort?: UserSort; dir?: 'asc' | 'desc' }

/** `users as u` with the list filters applied; the rows and the count share it. */
export function filteredUsers(db: Db, f: UserFilters) {
  let q = db.selectFrom('users as u')
  if (f.archived !== undefined) q = q.where('u.archived_at', f.archived ? 'is not' : 'is', null)
  if (f.enabled !== undefined) q = q.where('u.enabled', '=', f.enabled)
  // Scope words are separated by single spaces (formatScope); a whole word must match.
  if (f.scope) q = q.where(sql<boolean>`(' ' || u.scope || ' ') like ${`% ${f.scope} %`}`)
  for (const word of (f.search ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = containsPattern(word)
    q = q.where((eb) =>
      eb.or([
        eb('u.username', 'ilike', pattern),
        eb('u.name', 'ilike', pattern),
        eb('u.surname', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
      ]),
    )
  }
  return q
}

/** Users as the API shows them; `logged_in` = holds a live, unexpired session. */
export function selectUserRows(db: Db, now: Date, f: UserFilters = {}) {
  return filteredUsers(db, f)
    .select((eb) => [
      'u.id as _key',
      'u.username',
      'u.name',
      'u.surname',
      'u.email',
      'u.department_id as department_key',
      eb.selectFrom('departments as d').select('d.name').whereRef('d.id', '=', 'u.department_id').as('department_name'),
      'u.hourly_cost',
      'u.scope',
      'u.enabled',
      sql<boolean>`u.archived_at is null`.as('active'),
      eb
        .exists(
          eb
            .selectFrom('auth_sessions as s')
            .select('s.id')
            .whereRef('s.user_id', '=', 'u.id')
            .where('s.ended_at', 'is', null)
            .where('s.expires_at', '>', now),
        )
        .as('logged_in'),
      sql<number>`(extract(epoch from u.created_at) * 1000)::float8`.as('created_at'),
      sql<number | null>`(extract(epoch from u.last_login_at) * 1000)::float8`.as('last_login'),
      sql<string | null>`case when u.image_path is null then null else '/media/' || u.image_path end`.as('image_url'),
      'u.badge',
      sql<boolean>`u.pin_hash is not null`.as('has_pin'),
    ])
    .$castTo<UserRow>()
}

const SORT_COLUMNS = {
  username: sql`lower(u.username)`,
  name: sql`lower(u.name)`,
  surname: sql`lower(u.surname)`,
  last_login: sql`u.last_login_at`,
  created_at: sql`u.created_at`,
} as const satisfies Record<UserSort, unknown>

/**
 * Ordered rows: text columns case-insensitively, users who never signed in last whatever the
 * direction, then username and key so that pages never overlap or skip a row.
 */
export function orderedUserRows(db: Db, now: Date, f: UserFilters, order: UserOrder) {
  const dir = order.dir ?? 'asc'
  return selectUserRows(db, now, f)
    .orderBy(SORT_COLUMNS[order.sort ?? 'username'], (ob) => (dir === 'desc' ? ob.desc() : ob.asc()).nullsLast())
    .orderBy(sql`lower(u.username)`)
    .orderBy('u.id')
}

export async function countUsers(db: Db, f: UserFilters): Promise<number> {
  const row = await filteredUsers(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
