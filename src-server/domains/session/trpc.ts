import { ChangePasswordInput, SessionInput, UnlockInput } from '../../../src/domains/session/schemas'
import { procedure, router } from '../../trpc/init'
import * as session from './service'

const self = procedure({ scope: 'signed-in', beforePasswordChange: true })
const selfWhileLocked = procedure({ scope: 'signed-in', beforePasswordChange: true, whileLocked: true })

export const sessionRouter = router({
  whoami: self.query(({ ctx }) => session.whoami(ctx.auth)),
  info: self.input(SessionInput).mutation(({ ctx, input }) => session.sessionInfo(ctx, ctx.auth, input.user_key)),
  lock: selfWhileLocked.mutation(({ ctx }) => session.lock(ctx, ctx.auth)),
  unlock: selfWhileLocked.input(UnlockInput).mutation(({ ctx, input }) => session.unlock(ctx, ctx.auth, input.password)),
  activity: self.mutation(() => null),
  changePassword: self.input(ChangePasswordInput).mutation(({ ctx, input }) => session.changePassword(ctx, ctx.auth, ctx.actor, input)),
})
