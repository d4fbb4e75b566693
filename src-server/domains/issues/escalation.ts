import { type SqlBool, sql } from 'kysely'
import { ISSUE_EVENTS } from '../../../src/domains/issues/schemas'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import { appendEvent } from '../events/service'
import { refreshCriticalMarks } from './critical-marks'

/**
 * Automatic escalation (SPEC 4): an issue that is not closed turns critical once its type's
 * close-within hours have passed since it was (re)opened; close-within 0 means never.
 *
 * A person has the last word: once someone makes the issue non-critical after its deadline
 * (after an escalation, or after making it critical by hand), the sweep leaves this opening
 * alone. Reopening starts a new opening (opened_at = now) with a new deadline. A make-non-critical
 * before the deadline does not stop the escalation: the issue is still left open too long.
 * escalated_at keeps the time of the last escalation, as history.
 *
 * Safe with several app instances: each issue is escalated in its own short transaction that
 * locks the row with SKIP LOCKED and checks the condition again in a later statement (so it sees
 * whatever another sweep or a person committed meanwhile): an issue is escalated once, and no
 * sweep waits on another.
 */

const ESCALATION_BATCH = 500

const deadline = sql`i.opened_at + make_interval(hours => t.close_within_hours)`

/**
 * The escalation condition on `issues as i` joined to `issue_types as t`, at `now`.
 * `opened_at <= now - 1 hour` (the shortest close-within) lets the partial index issues_escalation
 * (opened_at, where not closed and not critical) find the candidates without reading young issues.
 */
function overdue(now: Date) {
  return sql<SqlBool>`(i.state <> 'closed' and not i.critical
    and t.close_within_hours > 0
    and i.opened_at <= ${now}::timestamptz - interval '1 hour'
    and ${deadline} <= ${now}::timestamptz
    and not exists (select 1 from events e
      where e.subject_type = 'issue' and e.subject_key = i.id::text
        and e.event_type = ${ISSUE_EVENTS.made_non_critical} and e.created_at >= ${deadline}))`
}

function overdueIssues(db: Db, now: Date) {
  return db.selectFrom('issues as i').innerJoin('issue_types as t', 't.id', 'i.type_id').where(overdue(now))
}

/** Escalates one issue if it is still overdue and nobody holds it; true when it did. */
export async function escalateIssue(db: Db, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom('issues').select('id').where('id', '=', id).forUpdate().skipLocked().executeTakeFirst()
    if (!locked) return false
    const issue = await overdueIssues(trx, now)
      .select(['i.id', 'i.code', 'i.job_id', 'i.work_order_id', 't.close_within_hours', 'i.opened_at'])
      .where('i.id', '=', id)
      .executeTakeFirst()
    if (!issue) return false
    await trx.updateTable('issues').set({ critical: true, escalated_at: now, updated_at: now }).where('id', '=', id).execute()
    await appendEvent(
      trx,
      null,
      {
        event_type: ISSUE_EVENTS.escalated,
        subject_type: 'issue',
        subject_key: id,
        data: { code: issue.code, critical: true, close_within_hours: issue.close_within_hours, opened_at: issue.opened_at.getTime() },
      },
      now,
    )
    await refreshCriticalMarks(trx, issue)
    return true
  })
}

/** One sweep: escalates the overdue issues (oldest first, up to a batch) and returns their keys. */
export async function escalateOverdue(svc: Pick<Services, 'db' | 'clock'>): Promise<string[]> {
  const now = svc.clock.now()
  const candidates = await overdueIssues(svc.db, now).select('i.id').orderBy('i.opened_at').limit(ESCALATION_BATCH).execute()
  const escalated: string[] = []
  for (const { id } of candidates) if (await escalateIssue(svc.db, id, now)) escalated.push(id)
  return escalated
}
