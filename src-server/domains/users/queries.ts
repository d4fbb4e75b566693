import { sql } from 'kysely'
import type { UserRow } from '../../../src/domains/users/schemas'
import type { Db } from '../../db/connect'

/** Users as the API shows them; `logged_in` = holds a live, unexpired session. */
export function selectUserRows(db: Db, now: Date) {
  return db
    .selectFrom('users as u')
    .select((eb) => [
      'u.id as _key',
      'u.username',
      'u.name',
      'u.surname',
      'u.email',
      'u.department_id as department_key',
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
    ])
    .$castTo<UserRow>()
}
