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
      'Create an API token: description, expiration (UTC ms, in the future) and scope (permission words); detail.token is shown once',
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
