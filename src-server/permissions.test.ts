import { describe, expect, test } from 'bun:test'
import { type Scope, SCOPES } from '../src/auth/scopes'
import { type Access, requiredScopes } from './auth/authorize'
import { restRoutes } from './rest/routes'
import { appCode, fillPath, quickUser, trpcCall } from './test/fixtures'
import { type Harness, useHarness } from './test/harness'
import { appRouter } from './trpc/app-router'

/**
 * Every REST route and tRPC procedure refuses a caller without its scope. The lists are read
 * from `restRoutes` and `appRouter`, so routes added by later issues are covered as they land.
 * Only these answer without signing in; adding a public route means adding it here.
 */
const PUBLIC_REST = new Set(['POST /login'])
const PUBLIC_TRPC = new Set<string>([])

/**
 * The access the platform issue asks for. The walk below proves that each declaration is
 * enforced; this table makes loosening a platform declaration fail too.
 */
const SIGNED_IN = 'signed-in'
const PLATFORM_REST: Record<string, Access['scope']> = {
  'POST /login': 'public',
  'POST /logout': SIGNED_IN,
  'GET /whoami': SIGNED_IN,
  'POST /session': SIGNED_IN,
  'DELETE /session/{session_key}': SIGNED_IN,
  'POST /session/lock': SIGNED_IN,
  'POST /session/unlock': SIGNED_IN,
  'POST /password': SIGNED_IN,
  'GET /user': ['admin', 'production'],
  'GET /user/{key}': ['admin', 'production'],
  'POST /user': 'admin',
  'PATCH /user/{key}': SIGNED_IN,
  'PUT /user/{key}/image': SIGNED_IN,
  'POST /event': SIGNED_IN,
}
const PLATFORM_TRPC: Record<string, Access['scope']> = {
  'session.whoami': SIGNED_IN,
  'session.info': SIGNED_IN,
  'session.lock': SIGNED_IN,
  'session.unlock': SIGNED_IN,
  'session.changePassword': SIGNED_IN,
  'users.list': ['admin', 'production'],
  'users.get': ['admin', 'production'],
  'users.create': 'admin',
  'users.patch': SIGNED_IN,
  'events.record': SIGNED_IN,
}
const scopeText = (s: Access['scope'] | undefined) => (Array.isArray(s) ? [...s].sort().join('|') : String(s))

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; meta?: { access?: Access } } }
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures)

const restLabel = (r: (typeof restRoutes)[number]) => `${r.method.toUpperCase()} ${r.path}`

/** Users holding every permission except the given ones, made once per distinct set. */
function usersWithout(h: Harness) {
  const made = new Map<string, Promise<string>>()
  let n = 0
  return (excluded: readonly Scope[]) => {
    const scope = SCOPES.filter((s) => !excluded.includes(s))
    if (scope.length === 0) throw new Error(`no user can lack every one of ${excluded.join(', ')}`)
    const key = scope.join(' ')
    if (!made.has(key)) made.set(key, quickUser(h, `perm.${++n}`, key).then((u) => u.token))
    return made.get(key)!
  }
}

describe('permission walk', () => {
  const h = useHarness()
  const without = usersWithout(h)

  test('the platform routes and procedures declare the access the issue asks for', () => {
    for (const [label, scope] of Object.entries(PLATFORM_REST)) {
      const r = restRoutes.find((x) => restLabel(x) === label)
      expect({ label, scope: scopeText(r?.access.scope) }).toEqual({ label, scope: scopeText(scope) })
    }
    for (const [name, scope] of Object.entries(PLATFORM_TRPC)) {
      const p = procedures.find(([n]) => n === name)?.[1]
      expect({ name, scope: scopeText(p?._def.meta?.access?.scope) }).toEqual({ name, scope: scopeText(scope) })
    }
  })

  test('every REST route and procedure declares its access', () => {
    for (const r of restRoutes) expect({ route: restLabel(r), scope: typeof r.access?.scope }).not.toEqual({ route: restLabel(r), scope: 'undefined' })
    for (const [name, p] of procedures) {
      expect({ name, hasAccess: Boolean(p._def.meta?.access?.scope) }).toEqual({ name, hasAccess: true })
    }
  })

  test('public routes are exactly the listed ones', () => {
    expect(restRoutes.filter((r) => r.access.scope === 'public').map(restLabel).sort()).toEqual([...PUBLIC_REST].sort())
    expect(procedures.filter(([, p]) => p._def.meta?.access?.scope === 'public').map(([n]) => n).sort()).toEqual([...PUBLIC_TRPC].sort())
  })

  test('REST: routes for signed-in users answer 401 without a token (or with a bad one)', async () => {
    for (const r of restRoutes) {
      if (r.access.scope === 'public') continue
      const path = `/api${fillPath(r.path)}`
      for (const token of [undefined, 'bogus.token', 'mes_bogus.token']) {
        const res = await h.request(r.method.toUpperCase(), path, { token, origin: null })
        expect({ route: restLabel(r), token, status: res.status, code: appCode(res.body) }).toEqual({
          route: restLabel(r),
          token,
          status: 401,
          code: 'NOT_AUTHENTICATED',
        })
      }
    }
  })

  test('REST: routes needing a permission refuse a user holding every other permission (403 NOT_AUTHORISED)', async () => {
    let checked = 0
    for (const r of restRoutes) {
      const needed = requiredScopes(r.access)
      if (needed.length === 0) continue
      const token = await without(needed)
      const res = await h.request(r.method.toUpperCase(), `/api${fillPath(r.path)}`, { token, body: r.body && !r.multipart ? {} : undefined })
      expect({ route: restLabel(r), status: res.status, code: appCode(res.body) }).toEqual({ route: restLabel(r), status: 403, code: 'NOT_AUTHORISED' })
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(3)
  })

  test('REST: a holder of one of the needed permissions gets past the gate', async () => {
    for (const r of restRoutes) {
      const needed = requiredScopes(r.access)
      if (needed.length === 0) continue
      for (const s of needed) {
        const token = await without(SCOPES.filter((x) => x !== s))
        const res = await h.request(r.method.toUpperCase(), `/api${fillPath(r.path)}`, { token, body: r.body && !r.multipart ? {} : undefined })
        const code = appCode(res.body)
        expect({ route: restLabel(r), scope: s, refused: res.status === 401 || code === 'NOT_AUTHORISED' }).toEqual({ route: restLabel(r), scope: s, refused: false })
      }
    }
  })

  test('tRPC: procedures for signed-in users answer 401 without a token', async () => {
    for (const [name, p] of procedures) {
      const access = p._def.meta!.access!
      if (access.scope === 'public') continue
      const type = p._def.type
      if (type === 'subscription') throw new Error(`${name}: subscriptions are not walked yet`)
      const res = await trpcCall(h, name, type, {}, { origin: null })
      expect({ name, status: res.status, code: appCode(res.body) }).toEqual({ name, status: 401, code: 'NOT_AUTHENTICATED' })
    }
  })

  test('tRPC: procedures needing a permission refuse a user holding every other permission', async () => {
    let checked = 0
    for (const [name, p] of procedures) {
      const needed = requiredScopes(p._def.meta!.access!)
      if (needed.length === 0) continue
      const type = p._def.type
      if (type === 'subscription') throw new Error(`${name}: subscriptions are not walked yet`)
      const token = await without(needed)
      const res = await trpcCall(h, name, type, {}, { token })
      expect({ name, status: res.status, code: appCode(res.body) }).toEqual({ name, status: 403, code: 'NOT_AUTHORISED' })
      // ... while a holder of the first needed permission is let through the gate.
      const holder = await without(SCOPES.filter((x) => x !== needed[0]))
      const ok = await trpcCall(h, name, type, {}, { token: holder })
      expect({ name, refused: ok.status === 401 || appCode(ok.body) === 'NOT_AUTHORISED' }).toEqual({ name, refused: false })
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(3)
  })
})
