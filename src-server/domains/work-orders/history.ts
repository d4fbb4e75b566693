/**
 * The history tab of a work order: the events of the work order, of its jobs and of the issues
 * and message threads of either, one keyset page, with the names of the operators and steps the
 * event data refers to by key (categories and filters: src/domains/work-orders/history.ts).
 */
import { sql } from 'kysely'
import type { HistoryEntry } from '../../../src/domains/work-orders/schemas'
import {
  ASSIGNMENT_EVENTS,
  CORRECTION_EVENTS,
  HISTORY_PAGE_SIZE_DEFAULT,
  type HistoryCategory,
  type HistoryFilter,
  PRODUCTION_PAUSE_REASON,
} from '../../../src/domains/work-orders/history'
import { ISSUE_EVENTS } from '../../../src/domains/issues/schemas'
import { isUuid } from '../../../src/uuid'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import { ms } from '../../db/epoch'
import { batchStepSubject } from '../signatures/content'
import { correctionSubject } from '../signatures/records'
import { batchStepSignatures, signaturesBySubject } from '../signatures/service'
import { userDisplayName } from './queries'
import { requireWorkOrderId } from './shared'

/**
 * The history tab (`GET work-order/{id}/history`): the events of the work order, of its jobs and
 * of the issues and message threads of either, newest first, one keyset page (`cursor` = the
 * last row's `_key`). `phase_key` keeps what concerns that phase's jobs (and rebalancing of that
 * phase); `category` one kind of event (src/domains/work-orders/history.ts). One query, driven by
 * the events_subject index; the users and steps the data names by key come back as `names`.
 */
export async function workOrderHistory(svc: Pick<Services, 'db'>, key: string, filter: HistoryFilter = {}): Promise<HistoryEntry[]> {
  const id = await requireWorkOrderId(svc.db, key)
  const limit = filter.limit ?? HISTORY_PAGE_SIZE_DEFAULT
  const phase = filter.phase_key ?? null
  const category = filter.category ?? null
  const assignment = sql.join(ASSIGNMENT_EVENTS.map((t) => sql.lit(t)))
  const corrections = sql.join(CORRECTION_EVENTS.map((t) => sql.lit(t)))
  const byCategory: Record<HistoryCategory, ReturnType<typeof sql>> = {
    issues: sql`e.subject_type = 'issue'`,
    messages: sql`e.subject_type = 'message'`,
    assignment: sql`e.event_type in (${assignment})`,
    corrections: sql`(e.event_type in (${corrections}) or (e.event_type = 'JOB_PAUSED' and e.data->>'reason' = ${PRODUCTION_PAUSE_REASON}))`,
    execution: sql`(e.subject_type = 'job' and e.event_type not in (${assignment}) and e.event_type not in (${corrections})
      and not (e.event_type = 'JOB_PAUSED' and coalesce(e.data->>'reason', '') = ${PRODUCTION_PAUSE_REASON}))`,
    work_order: sql`(e.subject_type = 'work_order' and e.event_type not in (${assignment}))`,
  }
  const rows = await sql<Omit<HistoryEntry, 'names' | 'signatures'>>`
    with wo_jobs as (
      select id::text as k from jobs where work_order_id = ${id} and (${phase}::uuid is null or phase_id = ${phase}::uuid)
    ), wo_issues as (
      select id::text as k from issues
       where (${phase}::uuid is null and work_order_id = ${id} and job_id is null) or job_id::text in (select k from wo_jobs)
      union
      select subject_key from events
       where event_type = ${ISSUE_EVENTS.deleted} and subject_type = 'issue'
         and ((${phase}::uuid is null and data->>'work_order_key' = ${id}::text and data->>'job_key' is null) or data->>'job_key' in (select k from wo_jobs))
    ), wo_messages as (
      select id::text as k from messages
       where (${phase}::uuid is null and context_type = 'work_order' and context_key = ${id}::uuid)
          or (context_type = 'job' and context_key in (select k::uuid from wo_jobs))
    )
    select e.id::text as _key, e.event_type, ${ms('e.created_at')} as "timestamp", e.user_id as user_key,
           case when u.id is null then null else ${userDisplayName} end as user_name,
           e.subject_type, e.subject_key, e.data,
           x.job_key, coalesce(j.phase_id::text, e.data->>'phase_key') as phase_key,
           case when e.subject_type = 'issue' and i.id is not null then json_build_object('code', i.code, 'title', i.title, 'state', i.state) end as issue,
           case when e.subject_type = 'message' then m.context_type end as thread
      from events e
      left join users u on u.id = e.user_id
      left join issues i on e.subject_type = 'issue' and i.id::text = e.subject_key
      left join messages m on e.subject_type = 'message' and m.id::text = e.subject_key
      cross join lateral (select case e.subject_type
          when 'job' then e.subject_key
          when 'issue' then coalesce(i.job_id::text, e.data->>'job_key')
          when 'message' then case when m.context_type = 'job' then m.context_key::text end
        end as job_key) x
      left join jobs j on j.id::text = x.job_key
     where ((e.subject_type = 'work_order' and e.subject_key = ${id}::text and (${phase}::uuid is null or e.data->>'phase_key' = ${phase}::text))
         or (e.subject_type = 'job' and e.subject_key in (select k from wo_jobs))
         or (e.subject_type = 'issue' and e.subject_key in (select k from wo_issues))
         or (e.subject_type = 'message' and e.subject_key in (select k from wo_messages)))
       and ${category ? byCategory[category] : sql`true`}
       and (${filter.cursor ?? null}::int8 is null or e.id < ${filter.cursor ?? null}::int8)
     order by e.id desc
     limit ${limit}`.execute(svc.db)
  const names = await referencedNames(svc.db, rows.rows)
  const signatures = await entrySignatures(svc.db, rows.rows)
  return rows.rows.map((r) => ({ ...r, names: names(r), signatures: signatures(r) }))
}

/**
 * The signatures of the entries the page shows, checked against today's data: a step's under its
 * completion, a signed job correction's under the event that recorded it.
 */
async function entrySignatures(db: Db, rows: { _key: string; event_type: string; subject_type: string | null; subject_key: string | null; data: Record<string, unknown> }[]) {
  type Row = (typeof rows)[number]
  const stepOf = (r: Row) =>
    r.event_type === 'STEP_COMPLETED' && typeof r.data.batch_key === 'string' && typeof r.data.step_key === 'string'
      ? { batchId: r.data.batch_key, stepKey: r.data.step_key }
      : null
  const correctionOf = (r: Row) => (r.subject_type === 'job' && r.subject_key && (CORRECTION_EVENTS as readonly string[]).includes(r.event_type) ? correctionSubject(r.subject_key, r._key) : null)
  const [steps, corrections] = await Promise.all([
    batchStepSignatures(
      db,
      rows.flatMap((r) => {
        const s = stepOf(r)
        return s ? [s] : []
      }),
    ),
    signaturesBySubject(
      db,
      'job_correction',
      rows.flatMap((r) => correctionOf(r) ?? []),
    ),
  ])
  return (r: Row) => {
    const s = stepOf(r)
    if (s) return steps.get(batchStepSubject(s.batchId, s.stepKey)) ?? []
    const c = correctionOf(r)
    return c ? (corrections.get(c) ?? []) : []
  }
}

/** Operators named by key in event data (assignment, rebalancing) and steps (step events). */
async function referencedNames(db: Db, rows: { data: Record<string, unknown>; phase_key: string | null }[]) {
  const userKeys = new Set<string>()
  const phaseKeys = new Set<string>()
  const userKeysOf = (d: Record<string, unknown>): string[] => {
    const keys = [d.operator_key, d.previous_operator_key]
    for (const list of [d.before, d.changed, d.created]) if (Array.isArray(list)) for (const j of list) keys.push((j as Record<string, unknown>)?.operator_key)
    return keys.filter((k): k is string => typeof k === 'string' && isUuid(k))
  }
  for (const r of rows) {
    for (const k of userKeysOf(r.data)) userKeys.add(k)
    if (typeof r.data.step_key === 'string' && r.phase_key && isUuid(r.phase_key)) phaseKeys.add(r.phase_key)
  }
  const users = userKeys.size
    ? await db
        .selectFrom('users as u')
        .select(['u.id', userDisplayName.as('name')])
        .where('u.id', 'in', [...userKeys])
        .execute()
    : []
  const phases = phaseKeys.size ? await db.selectFrom('product_phases').select(['id', 'steps']).where('id', 'in', [...phaseKeys]).execute() : []
  const userName = new Map(users.map((u) => [u.id, u.name]))
  const stepTitles = new Map(phases.map((p) => [p.id, new Map(p.steps.map((st) => [st._key, st.title]))]))
  return (r: { data: Record<string, unknown>; phase_key: string | null }): Record<string, string> => {
    const out: Record<string, string> = {}
    for (const k of userKeysOf(r.data)) {
      const name = userName.get(k)
      if (name) out[k] = name
    }
    const step = typeof r.data.step_key === 'string' && r.phase_key ? stepTitles.get(r.phase_key)?.get(r.data.step_key) : undefined
    if (step !== undefined) out[r.data.step_key as string] = step
    return out
  }
}
