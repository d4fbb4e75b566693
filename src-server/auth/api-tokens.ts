import type { Db } from '../db/connect'
import type { User } from '../db/schema'
import { newCredential, secretMatches, splitCredential } from './secrets'

/** API tokens are told apart from session tokens by this prefix. */
export const API_TOKEN_PREFIX = 'mes_'

export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX)

export function newApiTokenCredential() {
  return newCredential(API_TOKEN_PREFIX)
}

/** "Last used" is written at most this often per token, to keep reads cheap. */
const LAST_USED_EVERY_MS = 60_000

export type ValidApiToken = { tokenId: string; scope: string; user: User }

/** A live (not expired, not revoked) token whose creator is still enabled. */
export async function validateApiToken(db: Db, token: string, now: Date): Promise<ValidApiToken | null> {
  const parts = splitCredential(token)
  if (!parts) return null
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.created_by')
    .select(['t.id as token_id', 't.secret_hash', 't.scope as token_scope', 't.expires_at', 't.revoked_at', 't.last_used_at'])
    .selectAll('u')
    .where('t.id', '=', parts.id)
    .executeTakeFirst()
  if (!row || !secretMatches(parts.secret, row.secret_hash)) return null
  if (row.revoked_at || row.expires_at.getTime() <= now.getTime()) return null
  if (!row.enabled || row.archived_at) return null
  const { token_id, secret_hash: _s, token_scope, expires_at: _e, revoked_at: _r, last_used_at, ...user } = row
  if (!last_used_at || now.getTime() - last_used_at.getTime() >= LAST_USED_EVERY_MS) {
    await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', token_id).execute()
  }
  return { tokenId: token_id, scope: token_scope, user: user as User }
}
