import * as v from 'valibot'
import { ApiTokenCreated, ApiTokenCreateInput, ApiTokenKey, ApiTokenRow } from '../../../src/domains/api-tokens/schemas'
import { route } from '../../rest/route'
import * as apiTokens from './service'

const tag = 'api tokens'

export const apiTokenRoutes = [
  route({
    method: 'get',
    path: '/api-token',
    tag,
    summary: 'List API tokens, newest first, with status active, expired or revoked (never the token itself)',
    access: { scope: 'admin' },
    response: v.array(ApiTokenRow),
    handler: (ctx) => apiTokens.listApiTokens(ctx),
  }),
  route({
    method: 'post',
    path: '/api-token',
    tag,
    summary:
      'Create an API token: description, expiration (in the future, at most 5 years ahead: a date YYYY/MM/DD or YYYY-MM-DD = through that day, ' +
      'an ISO 8601 instant, UTC ms, or a duration from now such as 30d, 12h, 10min, 1w, 1m = 30 days, 1y = 360 days; otherwise 400 API_TOKEN_EXPIRATION_INVALID) ' +
      'and scope (permission words; a word that is not one: 400 UNKNOWN_PERMISSION); detail.token is shown once',
    access: { scope: 'admin' },
    body: ApiTokenCreateInput,
    response: ApiTokenCreated,
    status: 201,
    handler: (ctx, { body }) => apiTokens.createApiToken(ctx, ctx.actor!, body),
  }),
  route({
    method: 'delete',
    path: '/api-token/{key}',
    tag,
    summary: 'Revoke an API token: it answers 401 from now on',
    access: { scope: 'admin' },
    params: v.object({ key: ApiTokenKey }),
    response: ApiTokenRow,
    handler: (ctx, { params }) => apiTokens.revokeApiToken(ctx, ctx.actor!, params.key),
  }),
]
