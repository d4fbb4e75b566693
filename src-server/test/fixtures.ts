import { sql } from 'kysely'
import { newApiTokenCredential } from '../auth/api-tokens'
import { hashPassword } from '../auth/password'
import { createSession } from '../auth/sessions'
import type { Harness, RequestOpts } from './harness'

/** A real 1x1 PNG (decodes with any image library). */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)

/** A key that names no row. */
export const MISSING_UUID = '00000000-0000-4000-8000-000000000000'

/** A session of the bootstrap admin, made directly (no password hashing: fast). */
export const adminToken = async (h: Harness) => sessionFor(h, await adminKey(h))

/** The bootstrap admin's key. */
export async function adminKey(h: Harness): Promise<string> {
  const row = await h.svc.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
  return row.id
}

export async function countOf(h: Harness, table: 'users' | 'events' | 'auth_sessions' | 'api_tokens'): Promise<number> {
  const row = await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Row counts of every application table (later migrations included), except the failed
 * sign-in counters, which a refused login is meant to write, and the event chain, which the
 * chainer writes after the calls whose events it links.
 */
const tableNames = new WeakMap<Harness, Promise<string[]>>()

export async function tableCounts(h: Harness): Promise<Record<string, number>> {
  if (!tableNames.has(h)) {
    tableNames.set(
      h,
      sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name not like 'kysely_%' and table_name <> 'login_throttle'
          -- The event chainer links the events of earlier calls in the background (the events are counted).
          and table_name not in ('event_chain', 'event_chain_head')
        order by table_name`
        .execute(h.svc.db)
        .then((r) => r.rows.map((t) => t.name)),
    )
  }
  const names = await tableNames.get(h)!
  const counts = await sql<Record<string, number>>`select ${sql.join(
    names.map((n) => sql`(select count(*)::int from ${sql.table(n)}) as ${sql.ref(n)}`),
  )}`.execute(h.svc.db)
  return Object.fromEntries(names.map((n) => [n, Number(counts.rows[0]![n])]))
}

/** A new session for a user, as a sign-in makes it (without checking a password). */
export async function sessionFor(h: Harness, userKey: string): Promise<string> {
  const { token } = await createSession(h.svc.db, userKey, h.clock.now(), { ip: null, userAgent: 'bun test' })
  return token
}

export const QUICK_PASSWORD = 'password-123'
let quickHash: Promise<string> | undefined

/**
 * Like the harness's `userWithScope` (password QUICK_PASSWORD, nothing to change, one session)
 * but written straight to the database: no password hashing per user, which keeps suites
 * that need many users fast. Use `userWithScope` where the API path itself is under test.
 */
export async function quickUser(h: Harness, username: string, scope: string): Promise<{ key: string; token: string }> {
  quickHash ??= hashPassword(QUICK_PASSWORD)
  const { id } = await h.svc.db
    .insertInto('users')
    .values({ username, name: '', surname: '', scope, password_hash: await quickHash, created_at: h.clock.now() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { key: id, token: await sessionFor(h, id) }
}

/** An API token row made the way the admin screens make them; returns the bearer string. */
export async function insertApiToken(
  h: Harness,
  opts: { scope: string; createdBy: string; expiresInMs?: number; description?: string },
): Promise<{ id: string; token: string }> {
  const { id, token, secretHash } = newApiTokenCredential()
  const now = h.clock.now()
  await h.svc.db
    .insertInto('api_tokens')
    .values({
      id,
      secret_hash: secretHash,
      description: opts.description ?? 'test token',
      scope: opts.scope,
      expires_at: new Date(now.getTime() + (opts.expiresInMs ?? 30 * 24 * 3_600_000)),
      created_by: opts.createdBy,
      created_at: now,
    })
    .execute()
  return { id, token }
}

/**
 * Calls a tRPC procedure over HTTP like the client does (queries as GET with `?input=`,
 * mutations as POST with a JSON body).
 */
export async function trpcCall(
  h: Harness,
  path: string,
  type: 'query' | 'mutation',
  input: unknown,
  opts: RequestOpts = {},
) {
  if (type === 'query') {
    const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
    return h.request('GET', `/api/trpc/${path}${qs}`, opts)
  }
  return h.request('POST', `/api/trpc/${path}`, {
    ...opts,
    body: input === undefined ? undefined : JSON.stringify(input),
    headers: { 'content-type': 'application/json', ...opts.headers },
  })
}

/** The application error code of a REST or tRPC error answer. */
export function appCode(body: any): string | undefined {
  return body?.detail?.code ?? body?.error?.data?.appCode ?? undefined
}

/** Fills `{param}` placeholders of an OpenAPI-style path. */
export const fillPath = (p: string, value = MISSING_UUID) => p.replace(/\{(\w+)\}/g, () => value)

export const HOUR = 3_600_000
export const MINUTE = 60_000

/** Releases a product's draft through the API (work orders are made from released revisions); answers the revision number. */
export async function releaseProduct(h: Harness, token: string, productKey: string, reason = 'test release'): Promise<number> {
  const res = await h.request('POST', `/api/product/${productKey}/revision`, { token, body: { reason } })
  if (res.status !== 201) throw new Error(`release of ${productKey}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail.number
}
