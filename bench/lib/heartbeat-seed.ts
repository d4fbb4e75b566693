import { DEFAULT_PHASE_PARAMETERS } from '../../src/domains/process/phase-parameters'
import { newCredential } from '../../src-server/auth/secrets'
import type { Db } from '../../src-server/db/connect'
import { testRevisionOf } from '../../src-server/test/revisions'

/** A signed-in operator's token and the job they are running. */
export type HeartbeatPair = { token: string; job: string }

/**
 * Operators with a session and a running job each, written straight into the database (the
 * heartbeat path does not care how a job was started): a few statements per 500 operators.
 * Used by bench/heartbeat.ts (over HTTP) and bench/heartbeat-cpu.ts (in process).
 */
export async function seed(db: Db, operators: number): Promise<HeartbeatPair[]> {
  const now = new Date()
  // Runs are short, but never let the idle lock (heartbeats are not activity) pause jobs mid-run.
  await db.insertInto('settings').values({ key: 'idle_lock_minutes', value: '1440' }).onConflict((oc) => oc.column('key').doUpdateSet({ value: '1440' })).execute()
  const { id: operation } = await db.insertInto('operations').values({ name: 'Bench operation', default_phase_steps: '[]' }).returning('id').executeTakeFirstOrThrow()
  const { id: product } = await db.insertInto('products').values({ code: 'BENCH-HB', metadata: '[]', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
  const steps = [{ _key: 'bench-step-1', type: 'instruction', title: 'Check', text: '', media: [], fields: [], print_templates: [] }]
  const { id: phase } = await db
    .insertInto('product_phases')
    .values({
      product_id: product,
      position: 0,
      name: 'Assembly',
      operation_id: operation,
      department_id: null,
      // max_offline an hour: the sweep runs (every 5 s) but pauses nobody during the run.
      parameters: JSON.stringify({ ...DEFAULT_PHASE_PARAMETERS, max_offline: 3600 }),
      steps: JSON.stringify(steps),
      print_templates: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const passwordHash = await Bun.password.hash('bench-operator-unused', { algorithm: 'argon2id' })
  const pairs: HeartbeatPair[] = []
  const JOBS_PER_WO = 10
  for (let offset = 0; offset < operators; offset += 500) {
    const n = Math.min(500, operators - offset)
    const users = await db
      .insertInto('users')
      .values(Array.from({ length: n }, (_, i) => ({ username: `bench.op.${offset + i}`, scope: 'operator', password_hash: passwordHash, preferences: '{}' })))
      .returning('id')
      .execute()
    const creds = users.map(() => newCredential())
    await db
      .insertInto('auth_sessions')
      .values(
        users.map((u, i) => ({
          id: creds[i]!.id,
          secret_hash: creds[i]!.secretHash,
          user_id: u.id,
          created_at: now,
          expires_at: new Date(now.getTime() + 12 * 3_600_000),
          absolute_expires_at: new Date(now.getTime() + 24 * 3_600_000),
          last_activity_at: now,
        })),
      )
      .execute()
    // One work order per JOBS_PER_WO operators, each operator's running job in it: a few statements per 500 operators.
    const groups = Math.ceil(n / JOBS_PER_WO)
    const revision = await testRevisionOf(db, product)
    const wos = await db
      .insertInto('work_orders')
      .values(Array.from({ length: groups }, (_, g) => ({ code: `BENCH-${offset + g * JOBS_PER_WO}`, product_id: product, planned_qt: 100 * JOBS_PER_WO, revision_id: revision })))
      .returning(['id', 'code'])
      .execute()
    const woOf = new Map(wos.map((w) => [w.code, w.id]))
    const woIds = Array.from({ length: groups }, (_, g) => woOf.get(`BENCH-${offset + g * JOBS_PER_WO}`)!)
    await db
      .insertInto('work_order_phases')
      .values(woIds.map((wo, g) => {
        const size = Math.min(JOBS_PER_WO, n - g * JOBS_PER_WO)
        return { work_order_id: wo, phase_id: phase, position: 1, released_in_qt: 100 * size, taken_qt: 10 * size }
      }))
      .execute()
    const jobs = await db
      .insertInto('jobs')
      .values(
        users.map((u, i) => ({
          work_order_id: woIds[Math.floor(i / JOBS_PER_WO)]!,
          phase_id: phase,
          position: 1,
          quantity: 100,
          active_qt: 10,
          operator_id: u.id,
          status: 'started' as const,
          active: true,
          step_sequence: JSON.stringify([{ _key: 'bench-step-1', type: 'instruction' }]),
          last_heartbeat_at: now,
          started_at: now,
        })),
      )
      .returning(['id', 'operator_id'])
      .execute()
    const credOf = new Map(users.map((u, i) => [u.id, creds[i]!]))
    await db
      .insertInto('work_sessions')
      .values(jobs.map((j) => ({ job_id: j.id, user_id: j.operator_id!, auth_session_id: credOf.get(j.operator_id!)!.id, started_at: now })))
      .execute()
    for (const j of jobs) pairs.push({ token: credOf.get(j.operator_id!)!.token, job: j.id })
  }
  return pairs
}
