import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'

export const API_TOKEN_DESCRIPTION_MAX = 200
/** Tokens are meant to be rotated: at most this far ahead. */
export const API_TOKEN_MAX_LIFETIME_MS = 5 * 366 * 24 * 3_600_000

/**
 * `POST api-token`. SPEC 5 "API token needs description and expiration" and "at least a
 * permission" are checked by the service with their own codes, so these fields are lenient.
 * `expiration` is UTC milliseconds; `scope` the permission words, space-separated, as for users.
 */
export const ApiTokenCreateInput = v.object({
  description: v.optional(v.nullable(v.pipe(v.string(), StorableText, v.trim(), v.maxLength(API_TOKEN_DESCRIPTION_MAX)))),
  expiration: v.optional(v.nullable(v.pipe(v.number(), v.integer('expiration must be UTC milliseconds')))),
  scope: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200)))),
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
