import { sql } from 'kysely'
import { newApiTokenCredential } from '../auth/api-tokens'
import { ADMIN_PASSWORD, type Harness, type RequestOpts, signIn } from './harness'

/** A real 1x1 PNG (decodes with any image library). */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)

/** A key that names no row. */
export const MISSING_UUID = '00000000-0000-4000-8000-000000000000'

export const adminToken = (h: Harness) => signIn(h, 'admin', ADMIN_PASSWORD)

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
 * sign-in counters, which a refused login is meant to write.
 */
export async function tableCounts(h: Harness): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'kysely_%' and table_name <> 'login_throttle'
    order by table_name`.execute(h.svc.db)
  const names = tables.rows.map((t) => t.name)
  const counts = await sql<Record<string, number>>`select ${sql.join(
    names.map((n) => sql`(select count(*)::int from ${sql.table(n)}) as ${sql.ref(n)}`),
  )}`.execute(h.svc.db)
  return Object.fromEntries(names.map((n) => [n, Number(counts.rows[0]![n])]))
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
