import { sql } from 'kysely'
import type { AuditEntry, AuditFilter, AuditPage, AuditTrailInput } from '../../../src/domains/audit/schemas'
import type { Db } from '../../db/schema'
import { plantTimeZone } from '../reports/service'

/** The entity's code as people read it, where the event's data names one (the same expression as the index events_code). */
const codeOf = sql<string | null>`coalesce(e.data->>'code', e.data->>'serial', e.data->>'username')`

/**
 * The keys of the entities people call by this code (a work order's WO000007, a username, a
 * serial, a product, an issue, a position): their events are found even where the event's own
 * data does not repeat the code. A work order (by code or key) brings its jobs: what was done
 * and signed on it (steps, batches, signatures, corrections) is recorded on them.
 */
async function keysOfCode(db: Db, code: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select id::text from work_orders where code = ${code}
    union all select j.id::text from jobs j join work_orders w on w.id = j.work_order_id where w.code = ${code} or w.id::text = ${code}
    union all select id::text from users where username = ${code}
    union all select id::text from products where code = ${code}
    union all select id::text from serials where code = ${code}
    union all select id::text from issues where code = ${code}
    union all select id::text from positions where code = ${code}`.execute(db)
  return rows.map((r) => r.id)
}

function selectTrail(db: Db, filter: AuditFilter, codeKeys: string[]) {
  let q = db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(codeOf.as('code'))
    .select(['e.id', 'e.created_at', 'e.event_type', 'e.subject_type', 'e.subject_key', 'e.data', 'u.id as user_key', 'u.username', sql<string>`trim(u.name || ' ' || u.surname)`.as('full_name')])
  if (filter.subject_type) q = q.where('e.subject_type', '=', filter.subject_type)
  if (filter.event_type) q = q.where('e.event_type', '=', filter.event_type)
  if (filter.code) {
    const code = filter.code
    q = q.where((eb) => eb.or([eb('e.subject_key', 'in', [code, ...codeKeys]), eb(codeOf, '=', code)]))
  }
  if (filter.user) q = q.where('u.username', '=', filter.user)
  const tz = plantTimeZone()
  if (filter.from) q = q.where('e.created_at', '>=', sql<Date>`(${filter.from.replaceAll('/', '-')}::date)::timestamp at time zone ${tz}`)
  if (filter.to) q = q.where('e.created_at', '<', sql<Date>`(${filter.to.replaceAll('/', '-')}::date + 1)::timestamp at time zone ${tz}`)
  return q
}

type TrailRow = Awaited<ReturnType<ReturnType<typeof selectTrail>['execute']>>[number]

function entryOf(row: TrailRow): AuditEntry {
  const data = (row.data ?? {}) as Record<string, unknown>
  const changes = data.changes && typeof data.changes === 'object' && !Array.isArray(data.changes) ? (data.changes as AuditEntry['changes']) : null
  return {
    id: Number(row.id),
    at: row.created_at,
    event_type: row.event_type,
    user: row.user_key ? { _key: row.user_key, username: row.username!, full_name: row.full_name || null } : null,
    subject_type: row.subject_type,
    subject_key: row.subject_key,
    code: row.code,
    reason: typeof data.reason === 'string' ? data.reason : null,
    changes,
    data,
  }
}

/** `GET audit-trail`: events newest first, filtered, paged by id (keyset: as fast on page 1,000 as on page 1). */
export async function auditTrail(db: Db, input: AuditTrailInput): Promise<AuditPage> {
  const limit = input.limit ?? 50
  let q = selectTrail(db, input, input.code ? await keysOfCode(db, input.code) : [])
  const before = input.before ?? input.cursor
  if (before) q = q.where('e.id', '<', before)
  const rows = await q.orderBy('e.id', 'desc').limit(limit + 1).execute()
  const page = rows.slice(0, limit).map(entryOf)
  return { rows: page, next_before: rows.length > limit ? page[page.length - 1]!.id : null }
}

/** Every matching event, newest first, in pages (the exports read it without holding it all). */
export async function* auditTrailAll(db: Db, filter: AuditFilter): AsyncGenerator<AuditEntry[]> {
  let before: number | undefined
  for (;;) {
    const page = await auditTrail(db, { ...filter, limit: 500, ...(before ? { before } : {}) })
    if (page.rows.length) yield page.rows
    if (page.next_before === null) return
    before = page.next_before
  }
}
