import { sql } from 'kysely'
import { fromKysely, fromPglite, PgBoss, type SendOptions } from 'pg-boss'
import { FLOW_EVENT_TYPES } from '../../../src/domains/flows/schemas'
import type { Services } from '../../context'
import { type Db, pgliteOf } from '../../db/connect'
import { poolOf } from '../../db/prepared'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { newDeliveryId, sign } from './signature'

/**
 * Outbound webhook deliveries on pg-boss (a maintained PostgreSQL job queue):
 * - the event append inserts one `flow_deliveries` row per interested flow and its pg-boss job in
 *   the SAME transaction as the event (nothing is sent for a change that rolled back, nothing is
 *   lost for one that committed);
 * - at least once: a delivery has a live pg-boss job until it gets a 2xx answer or is given up
 *   24 h after its event (status failed): a failed try leaves a new job due after the backoff
 *   (retryDelay, doubling, at most an hour: next_attempt_at); a job whose instance died (kill -9)
 *   is run again by pg-boss once its heartbeat stops, on another instance;
 * - in order per flow: only the flow's oldest pending delivery is ever sent, by one job at a time
 *   across every instance (pg-boss groupConcurrency 1, group = flow); after a success the flow's
 *   next pending deliveries follow at once;
 * - every retry and "redeliver" sends the same webhook-id and body, so receivers drop duplicates.
 * PGlite (embedded, one process) runs the same queue on its own PGlite instance (pg-boss's pglite
 * backend), so `bun run start` delivers webhooks too.
 */
export const DELIVERY_QUEUE = 'flow-delivery'
export const GIVE_UP_AFTER_MS = 24 * 3_600_000
/** A delivery's tries: retryDelay doubling up to an hour (next_attempt_at). */
const RETRY_DELAY_MAX_SECONDS = 3_600
/** pg-boss's own retries of a job whose run failed or whose instance died (the next tries are new jobs). */
const RETRY_LIMIT = 20
const SEND_TIMEOUT_MS = 10_000
/** How often pg-boss looks for jobs whose instance stopped sending heartbeats (then retries them). */
const SUPERVISE_SECONDS = 10
/** Deliveries one job sends after its own (the flow catching up) before leaving the rest to their jobs. */
const CATCH_UP = 50

const FLOW_TYPES = new Set<string>(FLOW_EVENT_TYPES)

type Queue = { boss: PgBoss; sendOptions: SendOptions }
/** The running queue of this process (one app per process; tests start and stop it per file). */
let current: Queue | null = null

function sendOptions(retryDelaySeconds: number): SendOptions {
  return {
    retryLimit: RETRY_LIMIT,
    retryDelay: retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: RETRY_DELAY_MAX_SECONDS,
    // A dead worker's job is retried after this many seconds without a heartbeat.
    heartbeatSeconds: 10,
    expireInSeconds: 15 * 60,
  }
}

export type QueuedEvent = {
  id: number
  event_type: string
  created_at: Date
  user_id: string | null
  subject_type: string | null
  subject_key: string | null
  data: Record<string, unknown>
}

/** The webhook body (Standard Webhooks recommends type, timestamp, data). Fixed once: every retry sends the same bytes. */
export function deliveryBody(event: QueuedEvent): string {
  return JSON.stringify({
    type: event.event_type,
    timestamp: event.created_at.toISOString(),
    data: { event_id: event.id, subject_type: event.subject_type, subject_key: event.subject_key, user_key: event.user_id, ...event.data },
  })
}

/**
 * Called by the event append inside the change's transaction: a delivery (and its pg-boss job)
 * for every active flow that chose this event type. Types no flow can choose cost nothing.
 */
export async function queueFlowDeliveries(db: Db, event: QueuedEvent): Promise<void> {
  if (!FLOW_TYPES.has(event.event_type)) return
  const flows = await db
    .selectFrom('flows')
    .select('id')
    .where('active', '=', true)
    .where(sql<boolean>`event_types @> array[${event.event_type}]::text[]`)
    .orderBy('id')
    .execute()
  if (flows.length === 0) return
  const body = deliveryBody(event)
  const queue = current
  const rows = await db
    .insertInto('flow_deliveries')
    .values(flows.map((f) => ({ id: newDeliveryId(), flow_id: f.id, event_id: event.id, event_type: event.event_type, body, queued: queue !== null, created_at: event.created_at, retry_from: event.created_at })))
    .returning(['id', 'flow_id'])
    .execute()
  if (queue) for (const r of rows) await sendJob(queue, db, r.id, r.flow_id)
}

async function sendJob(queue: Queue, db: Db | null, deliveryId: string, flowId: string) {
  await queue.boss.send(DELIVERY_QUEUE, { delivery_id: deliveryId }, { ...queue.sendOptions, group: { id: flowId }, ...(db ? { db: fromKysely(db) } : {}) })
}

/** Puts a delivery back in the queue (redeliver, or one recorded while no queue ran). */
export async function requeueDelivery(db: Db, deliveryId: string, flowId: string): Promise<void> {
  const queue = current
  await db.updateTable('flow_deliveries').set({ queued: queue !== null }).where('id', '=', deliveryId).execute()
  if (queue) await sendJob(queue, db, deliveryId, flowId)
}

class NotYet extends Error {}

type Attempt = { ok: boolean; status: number | null; error: string | null }

async function post(url: string, secret: string, id: string, body: string, now: Date): Promise<Attempt> {
  const timestamp = Math.floor(now.getTime() / 1000)
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'progress-mes-webhooks/1',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(secret, id, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    })
    const text = await res.text().catch(() => '')
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null }
    return { ok: false, status: res.status, error: `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` }
  } catch (e) {
    const message = e instanceof Error ? (e.name === 'TimeoutError' ? `no answer within ${SEND_TIMEOUT_MS / 1000} s` : e.message) : String(e)
    return { ok: false, status: null, error: message.slice(0, 300) }
  }
}

/** Seconds before the next try after `attempts` failed ones: retryDelay, doubling, at most an hour. */
export const backoffSeconds = (retryDelaySeconds: number, attempts: number) =>
  Math.min(RETRY_DELAY_MAX_SECONDS, retryDelaySeconds * 2 ** Math.min(16, Math.max(0, attempts - 1)))

type Head = { id: string; seq: number; body: string; attempts: number; retry_from: Date; next_attempt_at: Date | null; url: string; secret: string; active: boolean }

/** The flow's oldest pending delivery (the only one that may be sent: in order per flow). */
async function headOf(db: Db, flowId: string): Promise<Head | undefined> {
  return db
    .selectFrom('flow_deliveries as d')
    .innerJoin('flows as f', 'f.id', 'd.flow_id')
    .select(['d.id', 'd.seq', 'd.body', 'd.attempts', 'd.retry_from', 'd.next_attempt_at', 'f.url', 'f.secret', 'f.active'])
    .where('d.flow_id', '=', flowId)
    .where('d.status', '=', 'pending')
    .orderBy('d.seq')
    .limit(1)
    .executeTakeFirst()
}

/** One try of the head; records it. 'retry' = failed and still within its 24 h. */
async function attempt(svc: Pick<Services, 'db' | 'clock'>, head: Head, retryDelaySeconds: number): Promise<'delivered' | 'failed' | 'retry'> {
  const now = svc.clock.now()
  const result = await post(head.url, head.secret, head.id, head.body, now)
  const expired = !result.ok && now.getTime() - head.retry_from.getTime() >= GIVE_UP_AFTER_MS
  const status = result.ok ? 'delivered' : expired ? 'failed' : 'pending'
  await svc.db
    .updateTable('flow_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status_code: result.status,
      last_error: result.error,
      last_attempt_at: now,
      // Backoff in real time (pg-boss's), whatever the app clock says.
      next_attempt_at: result.ok ? null : new Date(Date.now() + backoffSeconds(retryDelaySeconds, head.attempts + 1) * 1000),
      status,
      ...(result.ok ? { delivered_at: now } : {}),
    }))
    .where('id', '=', head.id)
    .where('status', '=', 'pending')
    .execute()
  return status === 'pending' ? 'retry' : status
}

/** A new job for the delivery, due at `at` (the job at hand then completes). */
async function reschedule(deliveryId: string, flowId: string, at: Date) {
  const queue = current
  if (!queue) throw new NotYet('no queue running')
  await queue.boss.send(DELIVERY_QUEUE, { delivery_id: deliveryId }, { ...queue.sendOptions, group: { id: flowId }, startAfter: at })
}

/**
 * The pg-boss handler of one delivery's job. A delivery always has a live job until it is
 * delivered or given up: a job that cannot send now leaves a new job due when it can (the
 * exponential backoff) before it completes; a job whose instance dies is run again by pg-boss.
 * Only the flow's oldest pending delivery is sent; after a success the next ones follow at once.
 */
export async function runDeliveryJob(svc: Pick<Services, 'db' | 'clock' | 'dbKind'>, deliveryId: string, retryDelaySeconds: number): Promise<void> {
  const own = await svc.db.selectFrom('flow_deliveries').select(['flow_id', 'status']).where('id', '=', deliveryId).executeTakeFirst()
  if (!own || own.status !== 'pending') return
  const ran = await withFlowLock(svc, own.flow_id, () => drain(svc, deliveryId, own.flow_id, retryDelaySeconds))
  // Another job of this flow is sending right now (on this or another instance): look again soon.
  if (ran === BUSY) await reschedule(deliveryId, own.flow_id, new Date(Date.now() + 1_000))
}

const BUSY = Symbol('busy')
const FLOW_LOCK_NAMESPACE = 727_200
const flowsSendingHere = new Set<string>()

/**
 * One sender per flow at a time across every instance: a PostgreSQL session advisory lock on a
 * pinned connection (gone with the connection if the instance dies), or, on PGlite (one process),
 * an in-process set. Never waits: BUSY when someone else holds it.
 */
async function withFlowLock<T>(svc: Pick<Services, 'db' | 'dbKind'>, flowId: string, fn: () => Promise<T>): Promise<T | typeof BUSY> {
  if (svc.dbKind !== 'postgres') {
    if (flowsSendingHere.has(flowId)) return BUSY
    flowsSendingHere.add(flowId)
    try {
      return await fn()
    } finally {
      flowsSendingHere.delete(flowId)
    }
  }
  return svc.db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${FLOW_LOCK_NAMESPACE}, hashtext(${flowId})) as ok`.execute(conn)
    if (!got.rows[0]?.ok) return BUSY
    try {
      return await fn()
    } finally {
      await sql`select pg_advisory_unlock(${FLOW_LOCK_NAMESPACE}, hashtext(${flowId}))`.execute(conn)
    }
  })
}

async function drain(svc: Pick<Services, 'db' | 'clock'>, deliveryId: string, flowId: string, retryDelaySeconds: number): Promise<void> {
  const own = { flow_id: flowId }
  const later = (at: Date | null, extraMs: number) => new Date(Math.max(at?.getTime() ?? 0, Date.now()) + extraMs)
  for (let n = 0; n < CATCH_UP; n++) {
    const head = await headOf(svc.db, own.flow_id)
    if (!head) return
    // Waiting behind the head: look again just after the head's next try.
    const behind = head.id === deliveryId ? 0 : 1_000
    if (!head.active) return reschedule(deliveryId, own.flow_id, later(null, 60_000))
    if (head.next_attempt_at && head.next_attempt_at.getTime() > Date.now()) return reschedule(deliveryId, own.flow_id, later(head.next_attempt_at, behind))
    const outcome = await attempt(svc, head, retryDelaySeconds)
    if (outcome === 'retry') {
      const after = await svc.db.selectFrom('flow_deliveries').select('next_attempt_at').where('id', '=', head.id).executeTakeFirst()
      return reschedule(deliveryId, own.flow_id, later(after?.next_attempt_at ?? null, behind))
    }
  }
  const still = await svc.db.selectFrom('flow_deliveries').select('status').where('id', '=', deliveryId).executeTakeFirst()
  if (still?.status === 'pending') await reschedule(deliveryId, own.flow_id, later(null, 0))
}

/** How long a delivery's run waits for the database to come back before it fails like any other run. */
const OUTAGE_WAIT_MS = 120_000

/**
 * Runs a delivery job, trying again while the database cannot be reached (db/unavailable.ts). A
 * run failing then could not even be recorded as failed: pg-boss would leave the job active, and
 * the flow's other jobs behind it (one at a time per flow), until its supervisor finds the job's
 * heartbeat stale, which can take a minute after the database is back. Waiting keeps the job
 * claimed (its heartbeat resumes with the database) and the flow goes on at once. The delivery is
 * sent again if its try was not recorded: same webhook-id, receivers drop duplicates.
 */
async function throughOutage(signal: AbortSignal, run: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + OUTAGE_WAIT_MS
  let delay = 250
  for (;;) {
    try {
      return await run()
    } catch (e) {
      if (!isDatabaseUnavailable(e) || signal.aborted || Date.now() + delay > deadline) throw e
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delay)
        function done() {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          resolve()
        }
        signal.addEventListener('abort', done)
      })
      delay = Math.min(5_000, delay * 2)
    }
  }
}

export type FlowWorker = { stop: () => Promise<void> }

/**
 * Starts this process's queue and delivery worker (main.ts; tests of flows). On PostgreSQL pg-boss
 * keeps its tables in schema `pgboss` of the same database; on PGlite it runs on the same PGlite.
 */
export async function startFlowWorker(
  svc: Pick<Services, 'db' | 'clock' | 'dbKind' | 'config'>,
  opts: { log?: (line: string) => void; pollingIntervalSeconds?: number } = {},
): Promise<FlowWorker> {
  let boss: PgBoss
  if (svc.dbKind === 'pglite') {
    const pglite = pgliteOf(svc.db)
    if (!pglite) throw new Error('flows: no PGlite instance behind this database')
    boss = new PgBoss({ db: fromPglite(pglite), backend: 'pglite', schedule: false, persistWarnings: false, superviseIntervalSeconds: SUPERVISE_SECONDS })
  } else {
    const pool = poolOf(svc.db)
    const connectionString = (pool?.options as { connectionString?: string } | undefined)?.connectionString
    if (!connectionString) throw new Error('flows: no PostgreSQL connection string behind this database')
    boss = new PgBoss({ connectionString, max: 4, schedule: false, persistWarnings: false, superviseIntervalSeconds: SUPERVISE_SECONDS })
  }
  // pg-boss goes on by itself through a database outage (its workers poll again, a job whose run
  // failed is retried, one left active is taken back after its heartbeat stops): only say why.
  // Its errors may be plain objects copied from the pg error (with the queue and worker added).
  boss.on('error', (e) => console.error('[flows] queue error:', (e as { message?: unknown } | null)?.message ?? e))
  await boss.start()
  await boss.createQueue(DELIVERY_QUEUE)
  const queue: Queue = { boss, sendOptions: sendOptions(svc.config.flowRetryDelaySeconds) }
  current = queue
  await boss.work<{ delivery_id: string }>(
    DELIVERY_QUEUE,
    { groupConcurrency: 1, localConcurrency: 2, batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 },
    async (jobs) => {
      for (const job of jobs) await throughOutage(job.signal, () => runDeliveryJob(svc, job.data.delivery_id, svc.config.flowRetryDelaySeconds))
    },
  )
  // Deliveries recorded while no queue ran (a script, a test without the worker) get their job now.
  const orphans = await svc.db.selectFrom('flow_deliveries').select(['id', 'flow_id']).where('status', '=', 'pending').where('queued', '=', false).orderBy('seq').execute()
  for (const o of orphans) await requeueDelivery(svc.db, o.id, o.flow_id)
  if (orphans.length) opts.log?.(`flows: ${orphans.length} waiting webhook deliveries queued`)
  return {
    async stop() {
      if (current === queue) current = null
      await boss.stop({ graceful: true, timeout: 5_000, close: true })
    },
  }
}
