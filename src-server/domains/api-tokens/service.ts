import {
  API_TOKEN_MAX_LIFETIME_MS,
  type ApiTokenCreated,
  type ApiTokenCreateInput,
  type ApiTokenRow,
} from '../../../src/domains/api-tokens/schemas'
import { expirationInstant } from '../../../src/expiration'
import { newApiTokenCredential } from '../../auth/api-tokens'
import { checkedScope } from '../../auth/permission-words'
import type { Actor, Services } from '../../context'
import { badRequest, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { selectApiTokenRows } from './queries'
import { invalidField } from '../../input-issues'

const missing = () => notFound('NOT_FOUND', 'API token not found')

/** SPEC 5: description and expiration required; at least one permission, all of them known words. */
function checkedInput(input: ApiTokenCreateInput, now: Date): { description: string; expiresAt: Date; scope: string } {
  const description = input.description?.trim() ?? ''
  if (!description) throw badRequest('API_TOKEN_DESCRIPTION_REQUIRED', 'API token needs a description')
  if (input.expiration === undefined || input.expiration === null || String(input.expiration).trim() === '') {
    throw badRequest('API_TOKEN_EXPIRATION_REQUIRED', 'API token needs an expiration')
  }
  const expiration = expirationInstant(input.expiration, now)
  if ('problem' in expiration) throw badRequest('API_TOKEN_EXPIRATION_INVALID', `expiration: ${expiration.problem}`)
  if (expiration.at <= now.getTime()) throw badRequest('API_TOKEN_EXPIRATION_PAST', 'the expiration must be in the future')
  if (expiration.at > now.getTime() + API_TOKEN_MAX_LIFETIME_MS) {
    throw invalidField({ path: 'expiration', kind: 'max_years', limit: 5, message: 'at most 5 years ahead' })
  }
  return { description, expiresAt: new Date(expiration.at), scope: checkedScope(input.scope) }
}

/** `GET api-token` (admin): newest first, revoked and expired ones included (with their status). */
export function listApiTokens(svc: Services): Promise<ApiTokenRow[]> {
  return selectApiTokenRows(svc.db, svc.clock.now()).orderBy('t.created_at', 'desc').orderBy('t.id').execute()
}

async function getApiToken(svc: Services, key: string): Promise<ApiTokenRow> {
  const row = await selectApiTokenRows(svc.db, svc.clock.now()).where('t.id', '=', key).executeTakeFirst()
  if (!row) throw missing()
  return row
}

/**
 * `POST api-token` (admin): a bearer token acting as its creator with exactly `scope`.
 * The token is returned this once; only the SHA-256 of its secret is stored.
 */
export async function createApiToken(svc: Services, actor: Actor, input: ApiTokenCreateInput): Promise<ApiTokenCreated> {
  const now = svc.clock.now()
  const { description, expiresAt, scope } = checkedInput(input, now)
  const { id, token, secretHash } = newApiTokenCredential()
  await svc.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('api_tokens')
      .values({ id, secret_hash: secretHash, description, scope, expires_at: expiresAt, created_by: actor.userId, created_at: now })
      .execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'API_TOKEN_CREATED',
        subject_type: 'api_token',
        subject_key: id,
        data: { description, scope, expiration: expiresAt.getTime() },
      },
      now,
    )
  })
  return { ...(await getApiToken(svc, id)), token }
}

/** `DELETE api-token/{key}` (admin): the token stops working at once. Revoking twice changes nothing. */
export async function revokeApiToken(svc: Services, actor: Actor, key: string): Promise<ApiTokenRow> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('api_tokens').select(['id', 'revoked_at', 'description']).where('id', '=', key).forUpdate().executeTakeFirst()
    if (!row) throw missing()
    if (row.revoked_at) return
    await trx.updateTable('api_tokens').set({ revoked_at: now }).where('id', '=', key).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'API_TOKEN_REVOKED', subject_type: 'api_token', subject_key: key, data: { description: row.description } },
      now,
    )
  })
  return getApiToken(svc, key)
}
