import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { makeSetup } from '../domains/execution/test-fixtures'
import { readSse, type SseReader } from '../live/sse-reader'
import { type AppInstance, type Instances, startInstances } from '../test/instances'
import { type PrivatePostgres, startPrivatePostgres } from '../test/private-postgres'
import { waitUntil } from '../test/wait'

/**
 * PostgreSQL going away under a working plant (issue 23): a real app process on a PostgreSQL
 * server of this test alone (never the machine's shared one), while an operator completes steps
 * and batches (idempotency keys, retried with the same key on 503 as the tablet does), the job's
 * heartbeat runs and a live stream is open. The server is (a) stopped cleanly (`pg_ctl stop -m
 * fast`, a restart in two halves so the "down" state can be checked) and (b) crashed (`pg_ctl
 * stop -m immediate`: crash recovery at the next start). While it is down every answer is 503
 * DATABASE_UNAVAILABLE with Retry-After (REST and tRPC) and /api/health is 503; once it is back
 * the same process serves again by itself, nothing acknowledged is lost, nothing retried is
 * doubled, the live stream delivers every event exactly once and a webhook queued before the
 * crash is delivered.
 */

const OPERATOR_PASSWORD = 'password-123'
/** Pacing of the simulated tablet: a write, a beat, a reconnect at most this often (not waiting for a state). */
const WRITE_EVERY_MS = 40
const BEAT_EVERY_MS = 200
const RECONNECT_EVERY_MS = 200

let pgServer: PrivatePostgres
let c: Instances
let app: AppInstance
let adminToken: string
let operatorToken: string
let jobKey: string
let formFieldKey: string
const hooks = receiver()
const timings: Record<string, number> = {}
const since = (t0: number) => Math.round(performance.now() - t0)

/** A webhook receiver that answers 503 after a second while `refusing` (slow and busy), 200 at once otherwise; notes each try. */
function receiver() {
  let refusing = false
  let inFlight = 0
  const tries: { id: string; status: number }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      await req.text()
      inFlight++
      const refused = refusing
      if (refused) await Bun.sleep(1_000)
      inFlight--
      const status = refused ? 503 : 200
      tries.push({ id: req.headers.get('webhook-id') ?? '', status })
      return new Response(status === 200 ? 'ok' : 'later', { status })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    tries,
    inFlight: () => inFlight,
    refuse: (on: boolean) => {
      refusing = on
    },
    stop: () => server.stop(true),
  }
}

async function signIn(username: string, password: string): Promise<string> {
  const res = await app.request('POST', '/api/login', { body: { username, password } })
  if (res.status !== 200) throw new Error(`sign-in ${username}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail.token
}

/** Every answer the tablet got that was neither a success nor 503 DATABASE_UNAVAILABLE with Retry-After. */
const unexpected: string[] = []
const isOutageAnswer = (res: { status: number; body: any; headers: Headers }) =>
  res.status === 503 && res.body?.detail?.code === 'DATABASE_UNAVAILABLE' && res.headers.get('retry-after') === '5'

type Ack = { path: string; body: Record<string, unknown>; key: string; outcome: any; refusedFirst: boolean }

/** The operator's tablet: completes the open batch's steps one after the other, each with its own key. */
function operatorWriter(firstOutcome: any) {
  const acks: Ack[] = []
  let refusals = 0
  let stopped = false
  let outcome = firstOutcome
  /** Sends one write until it is answered: on 503 again with the SAME idempotency key. */
  async function send(path: string, body: Record<string, unknown>): Promise<any> {
    let refusedFirst = false
    for (;;) {
      const res = await app.request('POST', path, { token: operatorToken, body }).catch((e) => ({ status: 0, body: String(e), headers: new Headers() }))
      if (res.status === 200) {
        acks.push({ path, body, key: body.idempotency_key as string, outcome: res.body.detail, refusedFirst })
        return res.body.detail
      }
      if (!isOutageAnswer(res)) {
        unexpected.push(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
        throw new Error(`unexpected answer to ${path}: ${res.status}`)
      }
      refusals++
      refusedFirst = true
      await Bun.sleep(WRITE_EVERY_MS)
    }
  }
  const done = (async () => {
    while (!stopped) {
      const batch = outcome.batch
      const step = [...batch.step_data].sort((a: any, b: any) => a.position - b.position).find((s: any) => !s.done)
      const body: Record<string, unknown> = { idempotency_key: crypto.randomUUID() }
      if (step.type === 'form') body.form_data = [{ field_key: formFieldKey, value: 'ok' }]
      outcome = await send(`/api/batch/${batch._key}/steps/${step._key}/complete`, body)
      await Bun.sleep(WRITE_EVERY_MS)
    }
  })()
  return {
    acks,
    refusals: () => refusals,
    stop: async () => {
      stopped = true
      await done
    },
  }
}

/** The job's heartbeat (no idempotency key: a beat is only a sign of life). */
function heartbeat() {
  let stopped = false
  let ok = 0
  let refused = 0
  const done = (async () => {
    while (!stopped) {
      const res = await app.request('POST', `/api/job/${jobKey}/heartbeat`, { token: operatorToken }).catch((e) => ({ status: 0, body: String(e), headers: new Headers() }))
      if (res.status === 200) ok++
      else if (isOutageAnswer(res)) refused++
      else unexpected.push(`heartbeat: ${res.status} ${JSON.stringify(res.body)}`)
      await Bun.sleep(BEAT_EVERY_MS)
    }
  })()
  return { ok: () => ok, refused: () => refused, stop: () => ((stopped = true), done) }
}

/** A live stream client as a browser's EventSource is: reconnects with Last-Event-ID whenever its stream ends. */
function liveClient() {
  const streams: SseReader[] = []
  let lastId: string | null = null
  let stopped = false
  let refused = 0
  const errors: string[] = []
  let opened = () => {}
  const firstOpen = new Promise<void>((resolve) => {
    opened = resolve
  })
  const ids = () => streams.flatMap((s) => s.frames.filter((f) => f.id && f.event !== 'error').map((f) => Number(f.id)))
  const done = (async () => {
    while (!stopped) {
      const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` }
      if (lastId) headers['last-event-id'] = lastId
      const res = await fetch(`${app.url}/api/events/stream`, { headers }).catch(() => null)
      if (res?.status === 200) {
        const stream = readSse(res)
        streams.push(stream)
        opened()
        await stream.ended
        for (const f of stream.frames) if (f.event === 'error') errors.push(f.data)
        const last = stream.frames.filter((f) => f.id && f.event !== 'error').at(-1)
        if (last) lastId = last.id!
      } else if (res && isOutageAnswer({ status: res.status, body: await res.json().catch(() => null), headers: res.headers })) {
        refused++
      } else {
        unexpected.push(`live stream: ${res?.status ?? 'no answer'}`)
      }
      if (!stopped) await Bun.sleep(RECONNECT_EVERY_MS)
    }
  })()
  return {
    firstOpen,
    ids,
    connections: () => streams.length,
    refused: () => refused,
    errors,
    /** Ends the current stream from the client's side (the tablet's connection dropping); it reconnects. */
    drop: () => streams.at(-1)?.close(),
    stop: async () => {
      stopped = true
      streams.at(-1)?.close()
      await done
    },
  }
}

/** The newest link of the event chain: live streams count by it. */
async function maxEventId(): Promise<number> {
  const row = await c.db.selectFrom('event_chain_head').select('seq').executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/** What every request meets while the database is down: REST, tRPC (batched too) and the health check. */
async function expectDownAnswers() {
  const health = await app.request('GET', '/api/health')
  expect(health.status).toBe(503)
  expect(health.body.detail).toMatchObject({ status: 'unavailable', database: 'postgres', code: 'DATABASE_UNAVAILABLE' })
  expect(health.headers.get('retry-after')).toBe('5')
  // A write: the session cannot be read, so 503 (never 401: the tablet must not sign out).
  const write = await app.request('POST', `/api/job/${jobKey}/pause`, { token: operatorToken, body: { idempotency_key: crypto.randomUUID() } })
  expect(write.status).toBe(503)
  expect(write.body).toEqual({ detail: { code: 'DATABASE_UNAVAILABLE', message: 'database unavailable: retry shortly' } })
  expect(write.headers.get('retry-after')).toBe('5')
  // A public write (the sign-in reads the users table).
  const login = await app.request('POST', '/api/login', { body: { username: 'op.outage', password: OPERATOR_PASSWORD } })
  expect(login.status).toBe(503)
  expect(login.body.detail.code).toBe('DATABASE_UNAVAILABLE')
  // tRPC answers in its own shape, with the same code and status.
  const one = await app.request('GET', '/api/trpc/session.whoami', { token: operatorToken })
  expect(one.status).toBe(503)
  expect(one.body.error.data).toMatchObject({ appCode: 'DATABASE_UNAVAILABLE', httpStatus: 503 })
  expect(one.headers.get('retry-after')).toBe('5')
  const batch = await app.request('GET', `/api/trpc/session.whoami,jobs.assignment?batch=1&input=${encodeURIComponent('{}')}`, { token: operatorToken })
  expect(batch.status).toBe(503)
  expect(batch.body.map((r: any) => r.error.data.appCode)).toEqual(['DATABASE_UNAVAILABLE', 'DATABASE_UNAVAILABLE'])
}

beforeAll(async () => {
  const t0 = performance.now()
  pgServer = await startPrivatePostgres()
  c = await startInstances({ count: 1, server: pgServer.url, env: { MES_FLOW_RETRY_DELAY_SECONDS: '1', MES_SWEEP_EVERY_MS: '1000' } })
  app = c.a
  adminToken = await c.adminToken()
  const created = await app.request('POST', '/api/user', { token: adminToken, body: { username: 'op.outage', scope: 'operator' } })
  expect(created.status).toBe(201)
  const temp = await signIn('op.outage', created.body.detail.temp_psw)
  const changed = await app.request('POST', '/api/password', { token: temp, body: { current_password: created.body.detail.temp_psw, new_password: OPERATOR_PASSWORD } })
  expect(changed.status).toBe(200)
  operatorToken = await signIn('op.outage', OPERATOR_PASSWORD)
  // One piece per batch, an instruction and a form step: every second write completes a batch.
  const setup = await makeSetup(c.db, {
    phases: [{ params: { production_batch_qt: 1, auto_new_batch: true } }],
    quantity: 5_000,
    operator: created.body.detail._key,
  })
  jobKey = setup.jobs[0]![0]!
  formFieldKey = Object.values(setup.phases[0]!.fields[1]!)[0]!
  const flow = await app.request('POST', '/api/flow', {
    token: adminToken,
    body: { name: 'Batches to ERP', url: hooks.url, secret: 'whsec_' + Buffer.from('outage-test-secret-32-bytes-long').toString('base64'), event_types: ['BATCH_COMPLETED'] },
  })
  expect(flow.status).toBe(201)
  timings.setupMs = since(t0)
}, 120_000)

afterAll(async () => {
  if (process.env.OUTAGE_TEST_LOG) await Bun.write(process.env.OUTAGE_TEST_LOG, app?.output() ?? '')
  await c?.close()
  // Already stopped if the test failed while it was down (the watcher removes it at exit anyway).
  await pgServer?.stop('fast').catch(() => {})
  hooks.stop()
}, 60_000)

describe('PostgreSQL down and back under a working plant', () => {
  test('503 while down, everything back by itself after a clean stop and after a crash; nothing lost, nothing doubled', async () => {
    const tTest = performance.now()
    const live = liveClient()
    await live.firstOpen
    // The stream is open (it LISTENs): every event from here on must reach it exactly once.
    const baseline = await maxEventId()
    const started = await app.request('POST', `/api/job/${jobKey}/start`, { token: operatorToken, body: { idempotency_key: crypto.randomUUID() } })
    expect(started.status).toBe(200)
    const writer = operatorWriter(started.body.detail)
    const beats = heartbeat()
    const pid = app.pid

    // (a) A clean stop (every session gets 57P01), checked while down, then started again.
    await waitUntil('a few acknowledged writes', () => writer.acks.length >= 6)
    let t0 = performance.now()
    await pgServer.stop('fast')
    timings.fastStopMs = since(t0)
    const refusalsBefore = writer.refusals()
    await expectDownAnswers()
    await waitUntil('the tablet meeting 503 on a write', () => writer.refusals() > refusalsBefore, { timeoutMs: 10_000 })
    const acksWhileDown = writer.acks.length
    t0 = performance.now()
    await pgServer.start()
    timings.fastStartMs = since(t0)
    t0 = performance.now()
    await waitUntil('health ok again', async () => (await app.request('GET', '/api/health')).status === 200, { timeoutMs: 15_000 })
    timings.fastHealthBackMs = since(t0)
    await waitUntil('writes acknowledged again', () => writer.acks.length >= acksWhileDown + 4, { timeoutMs: 15_000 })
    timings.fastWritesBackMs = since(t0)

    // (b) A crash (no shutdown checkpoint; recovery at start) with webhooks waiting to be retried,
    // one of them being sent right then (its outcome cannot be recorded).
    hooks.refuse(true)
    let waiting: { id: string }[] = []
    await waitUntil('a webhook delivery refused once and waiting for its retry', async () => {
      waiting = await c.db.selectFrom('flow_deliveries').select('id').where('status', '=', 'pending').where('attempts', '>=', 1).execute()
      return waiting.length > 0
    }, { timeoutMs: 15_000 })
    await waitUntil('a webhook try in flight', () => hooks.inFlight() > 0, { timeoutMs: 15_000, everyMs: 5 })
    const acksBeforeCrash = writer.acks.slice()
    const refusalsBeforeCrash = writer.refusals()
    t0 = performance.now()
    await pgServer.stop('immediate')
    timings.crashStopMs = since(t0)
    // The tablet's stream drops too while the database is away: it must come back with a replay.
    live.drop()
    const liveRefusals = live.refused()
    await expectDownAnswers()
    await waitUntil('the tablet meeting 503 on a write', () => writer.refusals() > refusalsBeforeCrash, { timeoutMs: 10_000 })
    await waitUntil('the live client refused while reconnecting', () => live.refused() > liveRefusals, { timeoutMs: 10_000 })
    hooks.refuse(false)
    t0 = performance.now()
    await pgServer.start()
    timings.crashStartMs = since(t0)
    t0 = performance.now()
    await waitUntil('health ok again', async () => (await app.request('GET', '/api/health')).status === 200, { timeoutMs: 15_000 })
    timings.crashHealthBackMs = since(t0)
    const acksAtStart = writer.acks.length
    await waitUntil('writes acknowledged again', () => writer.acks.length >= acksAtStart + 4, { timeoutMs: 15_000 })
    timings.crashWritesBackMs = since(t0)
    await waitUntil(
      'the webhooks queued before the crash delivered',
      async () => {
        const rows = await c.db.selectFrom('flow_deliveries').select(['id', 'status']).where('id', 'in', waiting.map((w) => w.id)).execute()
        return rows.every((r) => r.status === 'delivered')
      },
      { timeoutMs: 40_000, everyMs: 200 },
    )
    timings.crashWebhookBackMs = since(t0)

    await writer.stop()
    await beats.stop()
    // Same process all along: it healed without a restart.
    expect(app.alive()).toBe(true)
    expect(app.pid).toBe(pid)
    expect(unexpected).toEqual([])
    expect(beats.ok()).toBeGreaterThan(0)
    expect(beats.refused()).toBeGreaterThan(0)

    // Every write acknowledged before the crash is in the database (a commit answered is a commit kept).
    const steps = await c.db
      .selectFrom('events')
      .select([sql<string>`data->>'batch_key'`.as('batch'), sql<string>`data->>'step_key'`.as('step')])
      .where('subject_key', '=', jobKey)
      .where('event_type', '=', 'STEP_COMPLETED')
      .execute()
    const done = new Set(steps.map((s) => `${s.batch}/${s.step}`))
    const stepOf = (a: Ack) => a.path.match(/\/batch\/([^/]+)\/steps\/([^/]+)\/complete$/)!.slice(1).join('/')
    for (const a of acksBeforeCrash) expect(done.has(stepOf(a))).toBe(true)
    // ... and every write acknowledged at all, each exactly once (no step twice), no effect without an answer.
    expect(steps).toHaveLength(writer.acks.length)
    expect(done.size).toBe(steps.length)
    expect(new Set(writer.acks.map(stepOf)).size).toBe(writer.acks.length)
    const keys = await c.db.selectFrom('idempotency_keys').select('key').where('key', 'in', writer.acks.map((a) => a.key)).execute()
    expect(keys).toHaveLength(writer.acks.length)
    // Batches: one BATCH_COMPLETED per acknowledged batch completion.
    const completedBatches = writer.acks.filter((a) => a.outcome.completed_batch).length
    expect(completedBatches).toBeGreaterThan(0)
    const batchEvents = await c.db.selectFrom('events').select('id').where('subject_key', '=', jobKey).where('event_type', '=', 'BATCH_COMPLETED').execute()
    expect(batchEvents).toHaveLength(completedBatches)

    // Writes refused with 503 and retried with the same key: done once. Sent again now, the
    // answer is the stored one and nothing happens twice.
    const retried = writer.acks.filter((a) => a.refusedFirst)
    expect(retried.length).toBeGreaterThanOrEqual(2)
    for (const a of [retried[0]!, acksBeforeCrash[0]!]) {
      const again = await app.request('POST', a.path, { token: operatorToken, body: a.body })
      expect(again.status).toBe(200)
      expect(again.body.detail).toEqual(a.outcome)
    }
    const stepsAfter = await c.db.selectFrom('events').select('id').where('subject_key', '=', jobKey).where('event_type', '=', 'STEP_COMPLETED').execute()
    expect(stepsAfter).toHaveLength(steps.length)

    // The live stream: every event since it opened, exactly once, through both outages.
    const last = await maxEventId()
    await waitUntil('the live client at the newest event', () => live.ids().includes(last), { timeoutMs: 15_000 })
    await live.stop()
    const all = await c.db.selectFrom('event_chain').select('seq').where('seq', '>', baseline).where('seq', '<=', last).orderBy('seq').execute()
    const received = live.ids().filter((id) => id <= last)
    expect({ twice: received.filter((id, i) => received.indexOf(id) !== i) }).toEqual({ twice: [] })
    // In commit order, through both outages.
    expect(received).toEqual(all.map((e) => Number(e.seq)))
    expect(live.connections()).toBeGreaterThanOrEqual(2)
    // The webhook retried after the crash reached the receiver with the same id.
    for (const w of waiting) expect(hooks.tries.some((t) => t.id === w.id && t.status === 200)).toBe(true)

    timings.testMs = since(tTest)
    timings.writes = writer.acks.length
    timings.writeRefusals = writer.refusals()
    console.log(`[outage test] ${JSON.stringify(timings)}`)
  }, 90_000)
})
