import { sql } from 'kysely'
import type { ApiTokenRow } from '../../../src/domains/api-tokens/schemas'
import type { Db } from '../../db/connect'
import { ms, msOrNull } from '../../db/epoch'

/** A timestamp column as UTC milliseconds (null stays null). */

/** API tokens as the admin list shows them (never the secret); status as of `now`. */
export function selectApiTokenRows(db: Db, now: Date) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.created_by')
    .select([
      't.id as _key',
      't.description',
      't.scope',
      ms('t.expires_at').as('expiration'),
      ms('t.created_at').as('created_at'),
      't.created_by',
      'u.username as created_by_username',
      msOrNull('t.revoked_at').as('revoked_at'),
      msOrNull('t.last_used_at').as('last_used'),
      sql<ApiTokenRow['status']>`case when t.revoked_at is not null then 'revoked' when t.expires_at <= ${now} then 'expired' else 'active' end`.as(
        'status',
      ),
    ])
    .$castTo<ApiTokenRow>()
}
