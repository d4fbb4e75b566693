import * as v from 'valibot'
import { SCOPES } from '../../auth/scopes'
import { EXPIRATION_FORMATS } from '../../expiration'
import { StorableText } from '../../valibot-helpers'

export const API_TOKEN_DESCRIPTION_MAX = 200
/** Tokens are meant to be rotated: at most this far ahead. */
export const API_TOKEN_MAX_LIFETIME_MS = 5 * 366 * 24 * 3_600_000

/**
 * `POST api-token`. SPEC 5 "API token needs description and expiration" and "at least a
 * permission" are checked by the service with their own codes, so these fields are lenient.
 * `expiration`: a date, an instant or a duration from now (src/expiration.ts), read by the
 * service (API_TOKEN_EXPIRATION_INVALID); `scope` the permission words, space-separated, as for users.
 */
export const ApiTokenCreateInput = v.object({
  description: v.optional(v.nullable(v.pipe(v.string(), StorableText, v.trim(), v.maxLength(API_TOKEN_DESCRIPTION_MAX)))),
  expiration: v.optional(
    v.nullable(
      v.pipe(
        v.union([v.number(), v.pipe(v.string(), v.maxLength(40))], `expiration: ${EXPIRATION_FORMATS}`),
        v.description(`When the token stops working: ${EXPIRATION_FORMATS}. A date means through that day (plant calendar).`),
        v.metadata({ examples: ['30d', '1y', '2026/12/31', '2026-12-31T18:00:00Z', 1798761599999] }),
      ),
    ),
  ),
  scope: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200), v.description(`Permission words (SPEC 6), space-separated: ${SCOPES.join(', ')}`)))),
})
export type ApiTokenCreateInput = v.InferOutput<typeof ApiTokenCreateInput>

/** An API token's key (its public id, `mes_...`); anything else simply names no token. */
export const ApiTokenKey = v.pipe(v.string(), StorableText, v.minLength(1), v.maxLength(100))

export const API_TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const

export const ApiTokenRow = v.object({
  _key: v.string(),
  description: v.string(),
  scope: v.string(),
  expiration: v.number(),
  created_at: v.number(),
  created_by: v.string(),
  created_by_username: v.string(),
  revoked_at: v.nullable(v.number()),
  last_used: v.nullable(v.number()),
  status: v.picklist(API_TOKEN_STATUSES),
})
export type ApiTokenRow = v.InferOutput<typeof ApiTokenRow>

/** The answer to a creation: the row plus the token itself, shown this once and never again. */
export const ApiTokenCreated = v.object({ ...ApiTokenRow.entries, token: v.string() })
export type ApiTokenCreated = v.InferOutput<typeof ApiTokenCreated>
