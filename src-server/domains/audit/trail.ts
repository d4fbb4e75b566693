import { sql } from 'kysely'
import type { AuditEntry, AuditFilter, AuditPage, AuditTrailInput } from '../../../src/domains/audit/schemas'
import { SIGNATURE_MEANINGS } from '../../../src/domains/process/steps'
import { SIGNATURE_ROLES } from '../../../src/domains/signatures/schemas'
import { isUuid } from '../../../src/uuid'
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

/** The events that record a signature (docs/signatures.md), each carrying the signer's name, meaning and role. */
const SIGNATURE_EVENTS = new Set(['STEP_SIGNED', 'RECORD_SIGNED'])
const isOneOf = <T extends string>(list: readonly T[], x: unknown): x is T => typeof x === 'string' && (list as readonly string[]).includes(x)

function signatureOf(eventType: string, data: Record<string, unknown>): AuditEntry['signature'] {
  if (!SIGNATURE_EVENTS.has(eventType)) return null
  const { full_name, meaning, role } = data
  if (typeof full_name !== 'string' || !isOneOf(SIGNATURE_MEANINGS, meaning) || !isOneOf(SIGNATURE_ROLES, role)) return null
  return { full_name, meaning, role }
}

/** The work order of each job the page's events are about (one lookup per page, by primary key). */
async function workOrdersOfJobs(db: Db, rows: readonly TrailRow[]): Promise<Map<string, { _key: string; code: string }>> {
  const keys = [...new Set(rows.filter((r) => r.subject_type === 'job' && r.subject_key && isUuid(r.subject_key)).map((r) => r.subject_key!))]
  if (keys.length === 0) return new Map()
  const found = await db
    .selectFrom('jobs as j')
    .innerJoin('work_orders as w', 'w.id', 'j.work_order_id')
    .select(['j.id as job', 'w.id as wo', 'w.code'])
    .where('j.id', 'in', keys)
    .execute()
  return new Map(found.map((f) => [f.job, { _key: f.wo, code: f.code }]))
}

function entryOf(row: TrailRow, workOrders: ReadonlyMap<string, { _key: string; code: string }>): AuditEntry {
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
    signature: signatureOf(row.event_type, data),
    work_order: (row.subject_type === 'job' && row.subject_key && workOrders.get(row.subject_key)) || null,
  }
}

/** `GET audit-trail`: events newest first, filtered, paged by id (keyset: as fast on page 1,000 as on page 1). */
export async function auditTrail(db: Db, input: AuditTrailInput): Promise<AuditPage> {
  const limit = input.limit ?? 50
  let q = selectTrail(db, input, input.code ? await keysOfCode(db, input.code) : [])
  const before = input.before ?? input.cursor
  if (before) q = q.where('e.id', '<', before)
  const rows = await q.orderBy('e.id', 'desc').limit(limit + 1).execute()
  const kept = rows.slice(0, limit)
  const workOrders = await workOrdersOfJobs(db, kept)
  const page = kept.map((row) => entryOf(row, workOrders))
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
