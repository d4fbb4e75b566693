import pg from 'pg'
import { backendCpu } from './lib/cpu'
import { createThrowawayDatabase } from './lib/pg'
import { openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'

const admin = 'postgres://postgres@127.0.0.1:5432/'
const db = await createThrowawayDatabase(admin, 'mes_probe2')
try {
  const o = openPostgres(db.url, 2)
  await migrateToLatest(o.db)
  const { heartbeatSeedForProbe } = await import('./heartbeat')
  const pairs = await heartbeatSeedForProbe(o.db, 200)
  const users = await o.db.selectFrom('jobs').select(['id', 'operator_id']).execute()
  const sessions = (await o.db.selectFrom('auth_sessions').select('id').execute()).map((r) => r.id)
  await o.close()
  const cpu = backendCpu(admin, db.name)
  const variants: [string, string, (j: { id: string; operator_id: string | null }) => unknown[]][] = [

    ['raw', 'UPDATE jobs SET last_heartbeat_at = now() WHERE id = $1', (j) => [j.id]],
    ['guarded', 'UPDATE jobs SET last_heartbeat_at = $2 WHERE id = $1 AND active AND operator_id = $3', (j) => [j.id, new Date(), j.operator_id]],
    ['selfjoin', 'update jobs j set last_heartbeat_at = $2 from jobs prev where j.id = $1 and prev.id = j.id and j.active and j.operator_id = $3 returning prev.last_heartbeat_at as prev, j.work_order_id, j.phase_id', (j) => [j.id, new Date(), j.operator_id]],
    ['select', 'select 1 from jobs where id = $1', (j) => [j.id]],
    ['batch8', `with v as (select unnest($1::uuid[]) as id, unnest($2::uuid[]) as operator_id, unnest($3::timestamptz[]) as at), beating as (select j.id, v.at from jobs j join v on v.id = j.id where j.operator_id = v.operator_id and j.active and j.last_heartbeat_at >= v.at - make_interval(secs => 30) for no key update of j skip locked) update jobs j set last_heartbeat_at = beating.at from beating where j.id = beating.id returning j.id`, (j) => { const i = users.indexOf(j as never); const g = Array.from({length: 8}, (_, k) => users[(i + k * 25) % users.length]!); return [g.map(x => x.id), g.map(x => x.operator_id), g.map(() => new Date().toISOString())] }],
    ['auth', `select s.*, to_jsonb(u) as "user", (select (value #>> '{}')::int as v from settings where key = 'idle_lock_minutes') as idle from auth_sessions s inner join users u on u.id = s.user_id where s.id = $1`, (j) => [sessions[users.indexOf(j as never) % sessions.length]]],
  ]
  for (let round = 0; round < 1; round++)
    for (const [label, q, args] of variants) {
      const pool = new pg.Pool({ connectionString: db.url, max: 20 })
      const clients = await Promise.all(Array.from({ length: 20 }, () => pool.connect()))
      await cpu.begin()
      let n = 0
      const end = performance.now() + 4000
      try { await Promise.all(clients.map(async (c, w) => { let i = w * 10; while (performance.now() < end) { await c.query(q, args(users[i++ % users.length]!)); n++ } })) } catch (e) { console.log(label, 'ERR', (e as Error).message) }
      const ms = await cpu.end()
      for (const c of clients) c.release()
      await pool.end()
      console.log(label.padEnd(10), (n / 4).toFixed(0), '/s  pg us/op', ((ms! * 1000) / n).toFixed(0))
    }
  const c = new pg.Client({ connectionString: db.url }); await c.connect()
  console.log((await c.query(`explain analyze update jobs j set last_heartbeat_at = now() from jobs prev where j.id = '${users[0]!.id}' and prev.id = j.id and j.active and j.operator_id = '${users[0]!.operator_id}' returning prev.last_heartbeat_at`)).rows.map((r) => r['QUERY PLAN']).join('\n'))
  console.log((await c.query(`select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = 'jobs'`)).rows)
  console.log((await c.query(`show synchronous_commit`)).rows, (await c.query(`show fsync`)).rows)
  await c.end()
} finally {
  await db.drop()
}
