import * as v from 'valibot'
import { SCOPES } from '../../../src/auth/scopes'
import { UserCreateInput, UserPatchInput } from '../../../src/domains/users/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as users from './service'

export const usersRouter = router({
  list: scoped('admin', 'production')
    .input(v.object({ activeOnly: v.optional(v.boolean()), scope: v.optional(v.picklist(SCOPES)) }))
    .query(({ ctx, input }) => users.listUsers(ctx, { activeOnly: input.activeOnly ?? true, scope: input.scope })),
  get: scoped('admin', 'production')
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => users.getUser(ctx, input.key)),
  create: scoped('admin')
    .input(UserCreateInput)
    .mutation(({ ctx, input }) => users.createUser(ctx, ctx.actor, input)),
  patch: procedure({ scope: 'signed-in', beforePasswordChange: true })
    .input(v.object({ key: Key, patch: UserPatchInput }))
    .mutation(({ ctx, input }) => users.patchUser(ctx, ctx.actor, input.key, input.patch)),
})
