import * as v from 'valibot'
import { ChangePasswordInput, LoginInput, LoginResult, SessionInfo, SessionInput, SetPinInput, UnlockInput, WhoAmI } from '../../../src/domains/session/schemas'
import { Key } from '../../../src/valibot-helpers'
import type { Access } from '../../auth/authorize'
import { clearAuthCookie, setAuthCookie } from '../../auth/cookie'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import * as session from './service'

const self: Access = { scope: 'signed-in', beforePasswordChange: true }
const selfWhileLocked: Access = { ...self, whileLocked: true }

export const sessionApi = useCases('session', {
  login: restOnly({
    summary: 'Sign in; sets the Authorization cookie and returns the token for Bearer use',
    access: { scope: 'public' },
    input: LoginInput,
    response: LoginResult,
    rest: { method: 'post', path: '/login' },
    run: async (ctx, input) => {
      const result = await session.login(ctx, input, ctx.client)
      setAuthCookie(ctx.hono!, result.token, ctx.client.https)
      return result
    },
  }),
  logout: restOnly({
    summary: 'Sign out: the token stops working',
    access: selfWhileLocked,
    rest: { method: 'post', path: '/logout' },
    run: async (ctx) => {
      await session.logout(ctx, ctx.actor)
      clearAuthCookie(ctx.hono!, ctx.client.https)
    },
  }),
  whoami: query({
    summary: 'The signed-in user',
    access: self,
    response: WhoAmI,
    rest: { method: 'get', path: '/whoami' },
    run: (ctx) => session.whoami(ctx.auth),
  }),
  info: mutation({
    summary: "The signed-in user's session: scope and preferences",
    access: self,
    input: SessionInput,
    response: SessionInfo,
    rest: { method: 'post', path: '/session' },
    run: (ctx, input) => session.sessionInfo(ctx, ctx.auth, input.user_key),
  }),
  deleteSession: restOnly({
    summary: "End a session (one's own; admins any)",
    access: selfWhileLocked,
    input: v.object({ session_key: Key }),
    rest: { method: 'delete', path: '/session/{session_key}' },
    run: (ctx, input) => session.deleteSession(ctx, ctx.actor, input.session_key),
  }),
  lock: mutation({
    summary: 'Lock the session now (the client does this on reload and after the idle timeout)',
    access: selfWhileLocked,
    rest: { method: 'post', path: '/session/lock' },
    run: (ctx) => session.lock(ctx, ctx.auth),
  }),
  unlock: mutation({
    summary: 'Unlock a locked session with the password',
    access: selfWhileLocked,
    input: UnlockInput,
    rest: { method: 'post', path: '/session/unlock' },
    run: (ctx, input) => session.unlock(ctx, ctx.auth, input.password),
  }),
  activity: mutation({
    summary: 'Report user activity (keeps the session from the idle lock)',
    access: self,
    rest: { method: 'post', path: '/session/activity' },
    run: () => null,
  }),
  changePassword: mutation({
    summary: 'Change the own password (temporary passwords must be replaced)',
    access: self,
    input: ChangePasswordInput,
    rest: { method: 'post', path: '/password' },
    run: (ctx, input) => session.changePassword(ctx, ctx.auth, ctx.actor, input),
  }),  setPin: mutation({
    summary: "Set or replace the own signing PIN (where the plant allows PIN signing), proven by the current password; stored only as a hash",
    access: self,
    input: SetPinInput,
    rest: { method: 'post', path: '/pin' },
    run: (ctx, input) => session.setPin(ctx, ctx.auth, ctx.actor, input),
  }),
})
