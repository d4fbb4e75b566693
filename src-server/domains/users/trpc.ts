import * as v from 'valibot'
import { UserCreateInput, UserListInput, UserPageInput, UserPatchInput } from '../../../src/domains/users/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as users from './service'

const KeyInput = v.object({ key: Key })

export const usersRouter = router({
  /** Every matching user; `activeOnly` defaults to true (the operator list: `{ scope: 'operator' }`). */
  list: scoped('admin', 'production')
    .input(UserListInput)
    .query(({ ctx, input }) => users.listUsers(ctx, { ...input, activeOnly: input.activeOnly ?? true })),
  /** The user library table: one page, sorted and filtered on the server. */
  page: scoped('admin')
    .input(UserPageInput)
    .query(({ ctx, input }) => users.pageUsers(ctx, input)),
  get: scoped('admin', 'production')
    .input(KeyInput)
    .query(({ ctx, input }) => users.getUser(ctx, input.key)),
  create: scoped('admin')
    .input(UserCreateInput)
    .mutation(({ ctx, input }) => users.createUser(ctx, ctx.actor, input)),
  patch: procedure({ scope: 'signed-in', beforePasswordChange: true })
    .input(v.object({ key: Key, patch: UserPatchInput }))
    .mutation(({ ctx, input }) => users.patchUser(ctx, ctx.actor, input.key, input.patch)),
  archive: scoped('admin')
    .input(KeyInput)
    .mutation(({ ctx, input }) => users.archiveUser(ctx, ctx.actor, input.key)),
  restore: scoped('admin')
    .input(KeyInput)
    .mutation(({ ctx, input }) => users.restoreUser(ctx, ctx.actor, input.key)),
  resetPassword: scoped('admin')
    .input(KeyInput)
    .mutation(({ ctx, input }) => users.resetPassword(ctx, ctx.actor, input.key)),
})
