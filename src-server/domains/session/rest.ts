import * as v from 'valibot'
import {
  ChangePasswordInput,
  LoginInput,
  LoginResult,
  SessionInfo,
  SessionInput,
  UnlockInput,
  WhoAmI,
} from '../../../src/domains/session/schemas'
import { Key } from '../../../src/valibot-helpers'
import type { Access } from '../../auth/authorize'
import { clearAuthCookie, setAuthCookie } from '../../auth/cookie'
import type { Auth } from '../../context'
import { route } from '../../rest/route'
import * as session from './service'

const tag = 'session'
const SELF: Access = { scope: 'signed-in', beforePasswordChange: true }
const auth = (ctx: { auth: Auth | null }) => ctx.auth as Auth

export const sessionRoutes = [
  route({
    method: 'post',
    path: '/login',
    tag,
    summary: 'Sign in; sets the Authorization cookie and returns the token for Bearer use',
    access: { scope: 'public' },
    body: LoginInput,
    response: LoginResult,
    handler: async (ctx, { body }) => {
      const result = await session.login(ctx, body, ctx.client)
      setAuthCookie(ctx.hono, result.token, ctx.client.https)
      return result
    },
  }),
  route({
    method: 'post',
    path: '/logout',
    tag,
    summary: 'Sign out: the token stops working',
    access: { ...SELF, whileLocked: true },
    handler: async (ctx) => {
      await session.logout(ctx, ctx.actor!)
      clearAuthCookie(ctx.hono, ctx.client.https)
    },
  }),
  route({
    method: 'get',
    path: '/whoami',
    tag,
    summary: 'The signed-in user',
    access: SELF,
    response: WhoAmI,
    handler: (ctx) => session.whoami(auth(ctx)),
  }),
  route({
    method: 'post',
    path: '/session',
    tag,
    summary: "The signed-in user's session: scope and preferences",
    access: SELF,
    body: SessionInput,
    response: SessionInfo,
    handler: (ctx, { body }) => session.sessionInfo(ctx, auth(ctx), body.user_key),
  }),
  route({
    method: 'delete',
    path: '/session/{session_key}',
    tag,
    summary: "End a session (one's own; admins any)",
    access: { ...SELF, whileLocked: true },
    params: v.object({ session_key: Key }),
    handler: (ctx, { params }) => session.deleteSession(ctx, ctx.actor!, params.session_key),
  }),
  route({
    method: 'post',
    path: '/session/lock',
    tag,
    summary: 'Lock the session now (the client does this on reload and after the idle timeout)',
    access: { ...SELF, whileLocked: true },
    handler: (ctx) => session.lock(ctx, auth(ctx)),
  }),
  route({
    method: 'post',
    path: '/session/unlock',
    tag,
    summary: 'Unlock a locked session with the password',
    access: { ...SELF, whileLocked: true },
    body: UnlockInput,
    handler: (ctx, { body }) => session.unlock(ctx, auth(ctx), body.password),
  }),
  route({
    method: 'post',
    path: '/session/activity',
    tag,
    summary: 'Report user activity (keeps the session from the idle lock)',
    access: SELF,
    handler: () => null,
  }),
  route({
    method: 'post',
    path: '/password',
    tag,
    summary: 'Change the own password (temporary passwords must be replaced)',
    access: SELF,
    body: ChangePasswordInput,
    handler: (ctx, { body }) => session.changePassword(ctx, auth(ctx), ctx.actor!, body),
  }),
]
