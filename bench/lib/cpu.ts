import { readFileSync } from 'node:fs'
import pg from 'pg'

/**
 * CPU time of processes on this machine, from /proc (Linux). Unlike requests/s, CPU time per
 * request hardly changes when other work shares the machine, so it tells where the time goes.
 */
const TICKS_PER_SECOND = 100 // USER_HZ on Linux

/** User + system CPU milliseconds a process (all its threads) has used so far; null if unreadable. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return null
  }
}

/** Busy share of all cores over `ms` milliseconds (0..1), from /proc/stat. */
export async function machineBusy(ms: number): Promise<number | null> {
  const read = () => {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? []
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0)
    return { idle, total: cpu.reduce((a, b) => a + b, 0) }
  }
  try {
    const a = read()
    await Bun.sleep(ms)
    const b = read()
    return b.total === a.total ? 0 : 1 - (b.idle - a.idle) / (b.total - a.total)
  } catch {
    return null
  }
}

/**
 * Counts the CPU of the PostgreSQL backends serving one database (other databases on the same
 * server, such as other test runs, are left out). Works when PostgreSQL runs on this machine.
 */
export function backendCpu(url: string, database: string) {
  const pids = async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const r = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])
      return r.rows.map((row) => row.pid)
    } finally {
      await client.end()
    }
  }
  let start = new Map<number, number>()
  return {
    async begin() {
      start = new Map((await pids()).flatMap((pid) => {
        const ms = processCpuMs(pid)
        return ms === null ? [] : [[pid, ms] as const]
      }))
    },
    /** CPU ms used since begin() by the backends alive now (a backend that exited meanwhile is missed). */
    async end(): Promise<number | null> {
      let total = 0
      let seen = 0
      for (const pid of await pids()) {
        const ms = processCpuMs(pid)
        if (ms === null) continue
        total += ms - (start.get(pid) ?? 0)
        seen++
      }
      return seen ? total : null
    },
  }
}
