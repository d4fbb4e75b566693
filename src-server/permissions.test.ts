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

  test('the walk covers routes of every kind', () => {
    expect(restRoutes.filter((r) => requiredScopes(r.access).length > 0).length).toBeGreaterThanOrEqual(3)
    expect(restRoutes.filter((r) => r.access.scope === 'signed-in').length).toBeGreaterThanOrEqual(3)
    expect(procedures.filter(([, p]) => requiredScopes(p._def.meta!.access!).length > 0).length).toBeGreaterThanOrEqual(3)
    // The one subscription (live.events) is walked in src-server/live/live.test.ts (its refusals arrive in the stream).
    for (const [name, p] of procedures.filter(([n]) => n !== 'live.events')) expect({ name, type: p._def.type }).not.toEqual({ name, type: 'subscription' })
  })

  // One test per route and procedure, so the walk grows with the API without any test getting long.
  for (const r of restRoutes) {
    if (r.access.scope === 'public') continue
    const label = restLabel(r)
    const path = `/api${fillPath(r.path)}`
    const body = r.body && !r.multipart ? {} : undefined
    const needed = requiredScopes(r.access)

    test(`REST ${label}: 401 without a token or with a bad one`, async () => {
      for (const token of [undefined, 'bogus.token', 'mes_bogus.token']) {
        const res = await h.request(r.method.toUpperCase(), path, { token, origin: null })
        expect({ token, status: res.status, code: appCode(res.body) }).toEqual({ token, status: 401, code: 'NOT_AUTHENTICATED' })
      }
    })

    if (needed.length === 0) continue
    test(`REST ${label}: 403 NOT_AUTHORISED without ${needed.join(' or ')}; a holder gets past the gate`, async () => {
      const res = await h.request(r.method.toUpperCase(), path, { token: await without(needed), body })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
      for (const s of needed) {
        const ok = await h.request(r.method.toUpperCase(), path, { token: await without(SCOPES.filter((x) => x !== s)), body })
        expect({ scope: s, refused: ok.status === 401 || appCode(ok.body) === 'NOT_AUTHORISED' }).toEqual({ scope: s, refused: false })
      }
    })
  }

  for (const [name, p] of procedures) {
    const access = p._def.meta?.access
    if (!access || access.scope === 'public' || p._def.type === 'subscription') continue
    const type = p._def.type as 'query' | 'mutation'
    const needed = requiredScopes(access)

    test(`tRPC ${name}: 401 without a token`, async () => {
      const res = await trpcCall(h, name, type, {}, { origin: null })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 401, code: 'NOT_AUTHENTICATED' })
    })

    if (needed.length === 0) continue
    test(`tRPC ${name}: 403 NOT_AUTHORISED without ${needed.join(' or ')}; a holder gets past the gate`, async () => {
      const res = await trpcCall(h, name, type, {}, { token: await without(needed) })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
      for (const s of needed) {
        const ok = await trpcCall(h, name, type, {}, { token: await without(SCOPES.filter((x) => x !== s)) })
        expect({ scope: s, refused: ok.status === 401 || appCode(ok.body) === 'NOT_AUTHORISED' }).toEqual({ scope: s, refused: false })
      }
    })
  }
})
