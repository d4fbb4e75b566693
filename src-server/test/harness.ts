import { afterAll, beforeAll } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../app'
import { passwordCost } from '../auth/password'
import { fakeClock } from '../clock'
import { readConfig } from '../config'
import type { Services } from '../context'
import type { OpenDatabase } from '../db/connect'
import { ensureAdmin } from '../seed/admin'
import { localFileStore } from '../storage/file-store'
import { createTestDatabase } from './database'

// Cheap password hashing in tests (same algorithm, lower cost): sign-ins cost ~1 ms, not ~100 ms.
passwordCost.memoryCost = 1024
passwordCost.timeCost = 1

export const ORIGIN = 'http://mes.test'
export const ADMIN_PASSWORD = 'admin-password-1'

export type Harness = {
  svc: Services
  clock: ReturnType<typeof fakeClock>
  app: ReturnType<typeof createApp>
  /** Calls the app like a browser/script on ORIGIN; JSON bodies are sent as JSON. */
  request: (method: string, path: string, opts?: RequestOpts) => Promise<{ status: number; body: any; headers: Headers }>
}

export type RequestOpts = { token?: string; cookie?: string; body?: unknown; headers?: Record<string, string>; origin?: string | null }

/**
 * One fresh database and app per test file, with a fake clock and the bootstrap admin
 * (password ADMIN_PASSWORD). Use inside a describe/test file: `const h = useHarness()`.
 */
export function useHarness(): Harness {
  const h = {} as Harness
  let database: OpenDatabase
  let dataDir: string
  beforeAll(async () => {
    database = await createTestDatabase()
    dataDir = mkdtempSync(path.join(tmpdir(), 'mes-test-'))
    h.clock = fakeClock()
    h.svc = {
      db: database.db,
      dbKind: database.kind,
      clock: h.clock,
      config: { ...readConfig({}), adminPassword: ADMIN_PASSWORD, dataDir },
      files: localFileStore(path.join(dataDir, 'files')),
    }
    await ensureAdmin(h.svc, () => {})
    h.app = createApp(h.svc)
    h.request = async (method, p, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers }
      if (opts.token) headers.authorization = `Bearer ${opts.token}`
      if (opts.cookie) headers.cookie = `Authorization=${opts.cookie}`
      if (opts.origin !== null) headers.origin = opts.origin ?? ORIGIN
      let body: BodyInit | undefined
      if (opts.body instanceof FormData || typeof opts.body === 'string') body = opts.body
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body)
        headers['content-type'] = 'application/json'
      }
      const res = await h.app.request(`${ORIGIN}${p}`, { method, headers, body })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers }
    }
    // A database from a template (or a PGlite start) can take seconds on a busy machine.
  }, 60_000)
  afterAll(async () => {
    await database?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }, 30_000)
  return h
}

/** Signs in through the API and returns the bearer token. */
export async function signIn(h: Harness, username: string, password: string): Promise<string> {
  const res = await h.request('POST', '/api/login', { body: { username, password } })
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail.token
}

/** Creates a user with the given scope via the admin API, replaces the temporary password, returns a token. */
export async function userWithScope(h: Harness, username: string, scope: string, password = 'password-123') {
  const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  const created = await h.request('POST', '/api/user', { token: admin, body: { username, scope } })
  if (created.status !== 201) throw new Error(`create ${username}: ${created.status} ${JSON.stringify(created.body)}`)
  const temp = await signIn(h, username, created.body.detail.temp_psw)
  const changed = await h.request('POST', '/api/password', {
    token: temp,
    body: { current_password: created.body.detail.temp_psw, new_password: password },
  })
  if (changed.status !== 200) throw new Error(`password ${username}: ${changed.status} ${JSON.stringify(changed.body)}`)
  return { key: created.body.detail._key as string, token: await signIn(h, username, password) }
}
