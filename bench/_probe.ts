import path from 'node:path'
import { startChild } from './lib/child'
import { backendCpu, processCpuMs } from './lib/cpu'
import { createThrowawayDatabase } from './lib/pg'
import { ensureWrk, runWrk, wrkScriptWithReport } from './lib/wrk'
import { openPostgres } from '../src-server/db/connect'

const admin = 'postgres://postgres@127.0.0.1:5432/'
const db = await createThrowawayDatabase(admin, 'mes_probe')
const app = await startChild('app', path.join(import.meta.dir, 'servers', 'app-sweeps.ts'), { DATABASE_URL: db.url, MES_ADMIN_PASSWORD: 'bench-admin-password', MES_DATA_DIR: '/tmp/hbprobe/data', MES_DEMO: '0' })
try {
  const { heartbeatSeedForProbe } = await import('./heartbeat')
  const s = openPostgres(db.url, 2)
  const pairs = await heartbeatSeedForProbe(s.db, 200)
  await s.close()
  await Bun.write('/tmp/hbprobe/pairs.txt', pairs.map((p) => `${p.token} ${p.job}`).join('\n'))
  const wrk = await ensureWrk()
  const { WRK_LUA } = await import('./heartbeat')
  const script = await wrkScriptWithReport(WRK_LUA, '/tmp/hbprobe/hb.lua')
  const cpu = backendCpu(admin, db.name)
  const measure = async (label: string, opts: any) => {
    await cpu.begin()
    const a0 = processCpuMs(app.proc.pid)!
    const r = await runWrk(wrk, { threads: 1, connections: 20, seconds: 5, ...opts })
    const a1 = processCpuMs(app.proc.pid)!
    const d = await cpu.end()
    console.log(label, r.rps.toFixed(0), 'req/s', 'server us/req', (((a1 - a0) * 1000) / r.requests).toFixed(0), 'pg us/req', ((d! * 1000) / r.requests).toFixed(0), 'errors', JSON.stringify(r.errors))
  }
  const base = `http://127.0.0.1:${app.port}`
  for (let i = 0; i < 2; i++) {
    await measure('whoami   ', { url: `${base}/api/whoami`, headers: { Authorization: `Bearer ${pairs[0]!.token}` } })
    await measure('heartbeat', { url: `${base}/api/job/x/heartbeat`, script, scriptArgs: ['/tmp/hbprobe/pairs.txt'] })
  }
} finally {
  await app.stop()
  await db.drop()
}
