import * as v from 'valibot'
import { ApiTokenCreateInput, ApiTokenKey } from '../../../src/domains/api-tokens/schemas'
import { router, scoped } from '../../trpc/init'
import * as apiTokens from './service'

export const apiTokensRouter = router({
  list: scoped('admin').query(({ ctx }) => apiTokens.listApiTokens(ctx)),
  create: scoped('admin')
    .input(ApiTokenCreateInput)
    .mutation(({ ctx, input }) => apiTokens.createApiToken(ctx, ctx.actor, input)),
  revoke: scoped('admin')
    .input(v.object({ key: ApiTokenKey }))
    .mutation(({ ctx, input }) => apiTokens.revokeApiToken(ctx, ctx.actor, input.key)),
})
