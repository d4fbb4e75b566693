import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import pg from 'pg'
import { createApp } from '../app'
import { fakeClock } from '../clock'
import { readConfig } from '../config'
import type { RequestCtx, Services } from '../context'
import { AppError } from '../errors'
import { localFileStore } from '../storage/file-store'
import { appRouter } from '../trpc/app-router'
import { openPostgres } from './connect'
import { isDatabaseUnavailable } from './unavailable'

/**
 * A database that cannot be reached is told apart from a bug (db/unavailable.ts), and the whole
 * HTTP surface answers it as 503 DATABASE_UNAVAILABLE with Retry-After: REST, tRPC (the session
 * lookup before it, and a query inside a procedure) and GET /api/health. No server is needed:
 * the database here is a port nobody listens on. (A real server stopped and crashed under a
 * running app: outage.test.ts.)
 */
function closedPort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port as number
  probe.stop(true)
  return port
}

const deadUrl = `postgres://postgres@127.0.0.1:${closedPort()}/mes`
const database = openPostgres(deadUrl, 2)
const dataDir = mkdtempSync(path.join(tmpdir(), 'mes-unavailable-'))
const svc: Services = {
  db: database.db,
  dbKind: 'postgres',
  clock: fakeClock(),
  config: { ...readConfig({}), dataDir },
  files: localFileStore(path.join(dataDir, 'files')),
}
const app = createApp(svc)
const ORIGIN = 'http://mes.test'
const request = (method: string, p: string, opts: { token?: string; body?: unknown } = {}) =>
  app.request(`${ORIGIN}${p}`, {
    method,
    headers: {
      origin: ORIGIN,
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
const SESSION_TOKEN = `${crypto.randomUUID()}.${'s'.repeat(40)}`
const OUTAGE = { code: 'DATABASE_UNAVAILABLE', message: 'database unavailable: retry shortly' }

afterAll(async () => {
  await database.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('isDatabaseUnavailable', () => {
  test('what pg throws when the server is down, going down, starting or not answering', async () => {
    const client = new pg.Client({ connectionString: deadUrl })
    const refused = await client.connect().then(
      () => null,
      (e: unknown) => e,
    )
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED')
    expect(isDatabaseUnavailable(refused)).toBe(true)
    const fatal = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' })
    for (const e of [
      fatal('57P01', 'terminating connection due to administrator command'),
      fatal('57P01', 'terminating connection due to unexpected postmaster exit'),
      fatal('57P02', 'terminating connection because of crash of another server process'),
      fatal('57P03', 'the database system is starting up'),
      fatal('57P03', 'the database system is in recovery mode'),
      fatal('53300', 'sorry, too many clients already'),
      fatal('08006', 'connection failure'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('connect ENOENT /run/postgresql/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect' }),
      new AggregateError([refused, refused], 'connect failed'),
      new Error('wrapped', { cause: refused }),
    ]) {
      expect({ message: (e as Error).message, unavailable: isDatabaseUnavailable(e) }).toEqual({ message: (e as Error).message, unavailable: true })
    }
  })

  test('refused statements, bugs and other errors are not an outage', () => {
    for (const e of [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' }),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new Error('Connection terminated'),
      new AppError(404, 'NOT_FOUND', 'not found'),
      new AggregateError([new Error('one'), refused()], 'mixed'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(e)).toBe(false)
    }
  })
})

function refused() {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect' })
}

describe('an app whose database cannot be reached', () => {
  test('GET /api/health: 503 unavailable with Retry-After (a load balancer takes the instance out)', async () => {
    const res = await request('GET', '/api/health')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({ detail: { status: 'unavailable', database: 'postgres', ...OUTAGE } })
  })

  test('REST: the session lookup and a public write answer 503 DATABASE_UNAVAILABLE, never 401 or 500', async () => {
    for (const res of [
      await request('GET', '/api/whoami', { token: SESSION_TOKEN }),
      await request('POST', '/api/job/x/heartbeat', { token: `mes_${crypto.randomUUID()}.${'t'.repeat(40)}` }),
      await request('POST', '/api/login', { body: { username: 'admin', password: 'whatever-1' } }),
    ]) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await res.json()).toEqual({ detail: OUTAGE })
    }
    // Without credentials nothing is read: the refusal stays what it is.
    expect((await request('GET', '/api/whoami')).status).toBe(401)
  })

  test("tRPC: the caller's session cannot be read -> every call of the batch is 503 with appCode DATABASE_UNAVAILABLE", async () => {
    const one = await request('GET', '/api/trpc/session.whoami', { token: SESSION_TOKEN })
    expect(one.status).toBe(503)
    expect(one.headers.get('retry-after')).toBe('5')
    const body = (await one.json()) as { error: { message: string; data: Record<string, unknown> } }
    expect(body.error.message).toBe(OUTAGE.message)
    expect(body.error.data).toMatchObject({ appCode: 'DATABASE_UNAVAILABLE', httpStatus: 503, code: 'SERVICE_UNAVAILABLE' })
    const batch = await request('GET', `/api/trpc/session.whoami,departments.list?batch=1&input=${encodeURIComponent('{}')}`, { token: SESSION_TOKEN })
    expect(batch.status).toBe(503)
    const calls = (await batch.json()) as { error: { data: { appCode: string } } }[]
    expect(calls.map((c) => c.error.data.appCode)).toEqual(['DATABASE_UNAVAILABLE', 'DATABASE_UNAVAILABLE'])
  })

  test('tRPC: a query failing inside a procedure is 503 DATABASE_UNAVAILABLE, not 500 INTERNAL', async () => {
    // An API token's caller (already identified): the procedure itself meets the dead database.
    const ctx: RequestCtx = {
      ...svc,
      auth: { via: 'token', user: { id: crypto.randomUUID(), username: 'script' } as never, tokenId: crypto.randomUUID(), scope: 'admin' },
      client: { ip: '127.0.0.1', https: false, userAgent: null },
      background: false,
      method: 'GET',
      crossOrigin: false,
    }
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request(`${ORIGIN}/api/trpc/departments.list`),
      router: appRouter,
      createContext: () => ctx,
    })
    expect(res.status).toBe(503)
    const body = (await res.json()) as { error: { message: string; data: Record<string, unknown> } }
    expect(body.error.message).toBe(OUTAGE.message)
    expect(body.error.data).toMatchObject({ appCode: 'DATABASE_UNAVAILABLE', httpStatus: 503 })
  })
})
