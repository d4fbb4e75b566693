import * as v from 'valibot'
import { ApiTokenCreated, ApiTokenCreateInput, ApiTokenKey, ApiTokenRow } from '../../../src/domains/api-tokens/schemas'
import { mutation, query, useCases } from '../../api/use-case'
import * as apiTokens from './service'

const admin = { scope: 'admin' } as const

export const apiTokensApi = useCases('api tokens', {
  list: query({
    summary: 'List API tokens, newest first, with status active, expired or revoked (never the token itself)',
    access: admin,
    response: v.array(ApiTokenRow),
    rest: { method: 'get', path: '/api-token' },
    run: (ctx) => apiTokens.listApiTokens(ctx),
  }),
  create: mutation({
    summary:
      'Create an API token: description, expiration (in the future, at most 5 years ahead: a date YYYY/MM/DD or YYYY-MM-DD = through that day, ' +
      'an ISO 8601 instant, UTC ms, or a duration from now such as 30d, 12h, 10min, 1w, 1m = 30 days, 1y = 360 days; otherwise 400 API_TOKEN_EXPIRATION_INVALID) ' +
      'and scope (permission words; a word that is not one: 400 UNKNOWN_PERMISSION); detail.token is shown once',
    access: admin,
    input: ApiTokenCreateInput,
    response: ApiTokenCreated,
    rest: { method: 'post', path: '/api-token', status: 201 },
    run: (ctx, input) => apiTokens.createApiToken(ctx, ctx.actor, input),
  }),
  revoke: mutation({
    summary: 'Revoke an API token: it answers 401 from now on',
    access: admin,
    input: v.object({ key: ApiTokenKey }),
    response: ApiTokenRow,
    rest: { method: 'delete', path: '/api-token/{key}' },
    run: (ctx, input) => apiTokens.revokeApiToken(ctx, ctx.actor, input.key),
  }),
})
