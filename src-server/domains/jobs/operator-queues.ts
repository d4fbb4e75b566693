/**
 * Operator queues (SPEC 3 Job assignment): every operator's open jobs in queue order with the
 * unassigned ones (`GET job-assignment`), and an operator's own order (`PUT queue/operator/{key}`).
 */
import { sql } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import {
  type JobAssignment,
  type JobAssignmentQuery,
  type JobRow,
  MAX_QUEUE_JOBS,
  QUEUE_PAGE_DEFAULT,
  type OperatorQueue,
  type OperatorQueueInput,
  type OperatorRow,
} from '../../../src/domains/jobs/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, forbidden, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { readSettings } from '../settings/queries'
import { listOperators } from './assign'
import { jobsJoined, selectJobRow, siteOrder } from './queries'
import { notOperator, today, wrongUser } from './shared'

/** Queue order: the operator's own order when independent (and the settings allow it), else site order. */
function queueRows(db: Db, day: string, independentAllowed: boolean) {
  const independent = independentAllowed ? sql<boolean>`coalesce(oq.independent, false)` : sql<boolean>`false`
  return selectJobRow(
    jobsJoined(db)
      .leftJoin('operator_queues as oq', 'oq.user_id', 'j.operator_id')
      .where('wo.archived_at', 'is', null)
      .where('j.status', '<>', 'closed'),
    day,
  ).select(
    sql<number>`row_number() over (partition by j.operator_id order by case when ${independent} then j.queue_position end asc nulls last, wo.sequence, j.position, j.id)`.as(
      'rn',
    ),
  )
}

const stripRn = (rows: (JobRow & { rn: number })[]): JobRow[] => rows.map(({ rn: _rn, ...row }) => row)

/**
 * One operator's queue, `limit` jobs after the first `offset`. In site order the jobs' own copy of the sequence
 * walks jobs_open_by_operator_queue and stops after the page, however long the queue (thousands of
 * open jobs cost the same as ten); an independent queue sorts the operator's open jobs first.
 */
function oneQueue(db: Db, day: string, userId: string, independent: boolean, page: Page) {
  const q = selectJobRow(jobsJoined(db).where('wo.archived_at', 'is', null).where('j.status', '<>', 'closed').where('j.operator_id', '=', userId), day)
  return siteOrder(independent ? q.orderBy(sql`j.queue_position asc nulls last`) : q, true)
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute()
}

/** A page of one list: `limit` jobs after the first `offset` (one more is read to know whether more follow). */
type Page = { limit: number; offset: number }

const cut = (rows: JobRow[], page: Page) => ({ jobs: rows.slice(0, page.limit), more: rows.length > page.limit })

/**
 * `GET job-assignment` (SPEC 3 Job assignment): each operator's open jobs in queue order and
 * the unassigned ones (in site order, where the settings allow unassigned jobs), each list a page
 * (QUEUE_PAGE_DEFAULT jobs unless asked, `more` when others follow). Production reads every
 * operator (or the one named by `user_key`); an operator reads only their own queue.
 */
export async function getJobAssignment(svc: Services, actor: Actor, input: JobAssignmentQuery): Promise<JobAssignment> {
  const queuePage: Page = { limit: input.limit ?? QUEUE_PAGE_DEFAULT, offset: input.offset ?? 0 }
  const unassignedPage: Page = { limit: input.unassigned_limit ?? QUEUE_PAGE_DEFAULT, offset: input.unassigned_offset ?? 0 }
  const production = hasScope(actor.scope, 'production')
  const userKey = input.user_key ?? (production ? undefined : actor.userId)
  if (!production && userKey !== actor.userId) throw forbidden('OWN_QUEUE_ONLY', 'operators read their own queue only')
  const settings = await readSettings(svc.db)
  const day = today(svc)
  let operators: OperatorRow[]
  if (userKey) {
    const one = await svc.db
      .selectFrom('users as u')
      .leftJoin('operator_queues as oq', 'oq.user_id', 'u.id')
      .select([
        'u.id as _key',
        'u.username',
        'u.name',
        'u.surname',
        'u.department_id as department_key',
        sql<boolean>`coalesce(oq.independent, false)`.as('independent'),
      ])
      .where('u.id', '=', userKey)
      .executeTakeFirst()
    if (!one) throw wrongUser()
    operators = [one]
  } else {
    // Eligible operators, and anyone else still holding open jobs (disabled since, say).
    const holders = svc.db
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select('j.operator_id')
      .where('j.status', '<>', 'closed')
      .where('wo.archived_at', 'is', null)
      .where('j.operator_id', 'is not', null)
    const eligible = await listOperators(svc)
    const others = await svc.db
      .selectFrom('users as u')
      .leftJoin('operator_queues as oq', 'oq.user_id', 'u.id')
      .select([
        'u.id as _key',
        'u.username',
        'u.name',
        'u.surname',
        'u.department_id as department_key',
        sql<boolean>`coalesce(oq.independent, false)`.as('independent'),
      ])
      .where('u.id', 'in', holders as never)
      .where(
        'u.id',
        'not in',
        eligible.length ? eligible.map((o) => o._key) : ['00000000-0000-0000-0000-000000000000'],
      )
      .execute()
    operators = [...eligible, ...others]
  }
  const byOperator = new Map<string, JobRow[]>()
  if (userKey) {
    const independent = operators[0]!.independent && settings.independent_queue_reordering
    byOperator.set(userKey, await oneQueue(svc.db, day, userKey, independent, queuePage))
  } else {
    const inner = queueRows(svc.db, day, settings.independent_queue_reordering).where('j.operator_id', 'is not', null).as('q')
    const assigned = (await svc.db
      .selectFrom(inner)
      .selectAll()
      .where('q.rn', '>', queuePage.offset)
      .where('q.rn', '<=', queuePage.offset + queuePage.limit + 1)
      .orderBy('q.operator_key')
      .orderBy('q.rn')
      .execute()) as unknown as (JobRow & { rn: number })[]
    for (const row of stripRn(assigned)) {
      const list = byOperator.get(row.operator_key!) ?? []
      list.push(row)
      byOperator.set(row.operator_key!, list)
    }
  }
  const queues: OperatorQueue[] = operators.map((operator) => {
    const rows = byOperator.get(operator._key) ?? []
    return {
      operator: { ...operator, independent: operator.independent && settings.independent_queue_reordering },
      ...cut(rows, queuePage),
    }
  })
  let unassigned: JobRow[] = []
  if (settings.allow_unassigned_jobs || production) {
    unassigned = await siteOrder(
      selectJobRow(jobsJoined(svc.db).where('wo.archived_at', 'is', null).where('j.status', '<>', 'closed').where('j.operator_id', 'is', null), day),
    )
      .offset(unassignedPage.offset)
      .limit(unassignedPage.limit + 1)
      .execute()
  }
  const rest = cut(unassigned, unassignedPage)
  return { assigned_jobs_by_operator: queues, unassigned_jobs: rest.jobs, unassigned_more: rest.more }
}

/**
 * `PUT queue/operator/{key}`: `independent` (production only; turning it on needs the
 * independent_queue_reordering setting, turning it off resets the queue to the site order)
 * and/or `jobs`: the operator's jobs in the wanted order (only while independent and allowed).
 * Listed jobs come first, the operator's other open jobs keep their order after them.
 */
export async function saveOperatorQueue(svc: Services, actor: Actor, userKey: string, input: OperatorQueueInput): Promise<OperatorQueue> {
  const production = hasScope(actor.scope, 'production')
  if (!production) {
    if (userKey !== actor.userId) throw forbidden('OWN_QUEUE_ONLY', 'operators order their own queue only')
    if (input.independent !== undefined) throw forbidden('NOT_AUTHORISED', 'only production turns independent ordering on or off')
  }
  if (input.jobs && new Set(input.jobs).size !== input.jobs.length) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' })
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const settings = await readSettings(trx)
    const user = await trx.selectFrom('users').select(['id', 'scope']).where('id', '=', userKey).executeTakeFirst()
    if (!user) throw wrongUser()
    if (!hasScope(user.scope, 'operator')) throw notOperator()
    await trx.insertInto('operator_queues').values({ user_id: userKey, updated_at: now }).onConflict((oc) => oc.column('user_id').doNothing()).execute()
    const queue = await trx.selectFrom('operator_queues').selectAll().where('user_id', '=', userKey).forUpdate().executeTakeFirstOrThrow()
    const before = queue.independent
    const after = input.independent ?? before
    if (after && !before && !settings.independent_queue_reordering) {
      throw conflict('QUEUE_REORDERING_DISABLED', 'the settings do not allow independent queue reordering')
    }
    if (input.jobs) {
      if (!after) throw conflict('QUEUE_NOT_INDEPENDENT', "the operator's queue follows the site order")
      if (!settings.independent_queue_reordering) throw conflict('QUEUE_REORDERING_DISABLED', 'the settings do not allow independent queue reordering')
    }
    const data: Record<string, unknown> = {}
    if (after !== before) {
      await trx.updateTable('operator_queues').set({ independent: after, updated_at: now }).where('user_id', '=', userKey).execute()
      data.independent = { from: before, to: after }
      if (!after) {
        // Back to the site order: the operator's own positions are forgotten.
        await trx.updateTable('jobs').set({ queue_position: null }).where('operator_id', '=', userKey).where('queue_position', 'is not', null).execute()
      }
    }
    if (after && (after !== before || input.jobs)) {
      // The current queue (own order first, then site order), locked; listed jobs move to the front.
      const open = await trx
        .selectFrom('jobs as j')
        .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
        .select(['j.id'])
        .where('j.operator_id', '=', userKey)
        .where('j.status', '<>', 'closed')
        .where('wo.archived_at', 'is', null)
        .orderBy(sql`j.queue_position asc nulls last`)
        .orderBy('wo.sequence')
        .orderBy('j.position')
        .orderBy('j.id')
        .forUpdate('j')
        .execute()
      const openIds = open.map((r) => r.id)
      const openSet = new Set(openIds)
      const listed = input.jobs ?? []
      for (const key of listed) {
        if (!openSet.has(key)) throw unprocessable('JOB_NOT_IN_QUEUE', "a job is not an open job of this operator's queue", { job_key: key })
      }
      const listedSet = new Set(listed)
      const order = [...listed, ...openIds.filter((id) => !listedSet.has(id))]
      if (order.length) {
        await sql`update jobs set queue_position = o.n
          from unnest(${order}::uuid[]) with ordinality as o(id, n)
          where jobs.id = o.id`.execute(trx)
      }
      if (input.jobs) data.jobs = listed
    }
    if (Object.keys(data).length === 0) return
    await appendEvent(trx, actor, { event_type: 'OPERATOR_QUEUE_UPDATED', subject_type: 'user', subject_key: userKey, data }, now)
  })
  const assignment = await getJobAssignment(svc, { ...actor, scope: `${actor.scope} production` }, { user_key: userKey, limit: MAX_QUEUE_JOBS, unassigned_limit: 0 })
  return assignment.assigned_jobs_by_operator[0]!
}
