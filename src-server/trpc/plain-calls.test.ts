import { describe, expect, test } from 'bun:test'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { Hono } from 'hono'
import { authenticate } from '../auth/authenticate'
import type { AppEnv } from '../http-env'
import { adminKey, adminToken, MISSING_UUID, quickUser } from '../test/fixtures'
import { ORIGIN, useHarness } from '../test/harness'
import { appRouter } from './app-router'
import { answerPlainCalls } from './plain-calls'

const h = useHarness()

/** The same API answered by tRPC's own fetch adapter for every call (the path plain-calls.ts shortens). */
function trpcOnly() {
  const app = new Hono<AppEnv>()
  app.use(authenticate(h.svc))
  app.all('/api/trpc/*', (c) => fetchRequestHandler({ endpoint: '/api/trpc', req: c.req.raw, router: appRouter, createContext: () => c.get('ctx') }))
  return app
}

/** Whether plain-calls.ts answers a call itself (or leaves it to tRPC). */
function plainOrNot() {
  const app = new Hono<AppEnv>()
  app.use(authenticate(h.svc))
  app.all('/api/trpc/*', async (c) => c.json({ plain: 'response' in (await answerPlainCalls(c, '/api/trpc')) }))
  return app
}

type Call = { method: 'GET' | 'POST'; path: string; token?: string; body?: string; headers?: Record<string, string> }

async function answer(app: { request: (url: string, init: RequestInit) => Response | Promise<Response> }, call: Call) {
  const headers: Record<string, string> = { origin: ORIGIN, ...call.headers }
  if (call.token) headers.authorization = `Bearer ${call.token}`
  if (call.method === 'POST') headers['content-type'] ??= 'application/json'
  const res = await app.request(`${ORIGIN}/api/trpc/${call.path}`, { method: call.method, headers, body: call.body })
  return { status: res.status, headers: [...res.headers.entries()], body: await res.text() }
}

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input))

describe('plain tRPC calls (plain-calls.ts) answer exactly as tRPC itself', () => {
  test('queries and mutations, single and batched, answered and refused, and what is left to tRPC', async () => {
    const admin = await adminToken(h)
    const me = await adminKey(h)
    const operator = await quickUser(h, 'op-plain', 'operator')
    const plain: Call[] = [
      // answered
      { method: 'GET', path: 'session.whoami', token: admin },
      { method: 'GET', path: `session.whoami,departments.list,users.get?batch=1&input=${q({ 2: { key: me } })}`, token: admin },
      { method: 'POST', path: 'session.info', token: admin, body: JSON.stringify({ user_key: me }) },
      { method: 'POST', path: 'session.info?batch=1', token: admin, body: JSON.stringify({ 0: { user_key: me } }) },
      // refused by the gate, the schema, the service; a batch with some refused (207)
      { method: 'GET', path: 'session.whoami' },
      { method: 'GET', path: `users.get?input=${q({ key: me })}`, token: operator.token },
      { method: 'GET', path: `users.get?input=${q({ key: 'not a key' })}`, token: admin },
      { method: 'GET', path: `users.get?input=${q({ key: me, kye: 1 })}`, token: admin },
      { method: 'GET', path: `session.whoami?input=${q({ extra: 1 })}`, token: admin },
      { method: 'GET', path: `users.get?input=${q({ key: 'a\u0000b' })}`, token: admin },
      { method: 'GET', path: `users.get?input=${q({ key: MISSING_UUID })}`, token: admin },
      { method: 'POST', path: 'session.info', token: admin, body: JSON.stringify({ user_key: MISSING_UUID }) },
      { method: 'GET', path: `session.whoami,users.get?batch=1&input=${q({ 1: { key: MISSING_UUID } })}`, token: admin },
      { method: 'GET', path: 'users.get,users.get?batch=1', token: admin },
    ]
    // unknown procedure, wrong method, input that is not JSON, an empty body, another content type
    const leftToTrpc: Call[] = [
      { method: 'GET', path: 'nope.nothing', token: admin },
      { method: 'POST', path: 'session.whoami', token: admin, body: '{}' },
      { method: 'GET', path: 'session.info', token: admin },
      { method: 'GET', path: 'users.get?input=%7Bnot-json', token: admin },
      { method: 'POST', path: 'session.info', token: admin, body: '{not json' },
      { method: 'POST', path: 'session.info', token: admin, body: '' },
      { method: 'POST', path: 'session.info?batch=1', token: admin, body: '[1]' },
      { method: 'POST', path: 'session.info', token: admin, body: JSON.stringify({ user_key: me }), headers: { 'content-type': 'text/plain' } },
    ]
    const reference = trpcOnly()
    const which = plainOrNot()
    for (const call of [...plain, ...leftToTrpc]) {
      const taken = JSON.parse((await answer(which, call)).body).plain
      expect({ call, plain: taken }).toEqual({ call, plain: plain.includes(call) })
    }
    for (const call of [...plain, ...leftToTrpc]) {
      const ours = await answer(h.app, call)
      const theirs = await answer(reference, call)
      expect({ call, ...ours }).toEqual({ call, ...theirs })
    }
  })
})
