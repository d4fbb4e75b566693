import path from 'node:path'

/** What one wrk run measured. Latencies in milliseconds. */
export type WrkResult = {
  requests: number
  seconds: number
  rps: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  /** wrk's own CPU time over the run, as a share of one core: near 1 per thread, the client is the limit. */
  clientCpu: number | null
  /** Socket errors plus non-2xx/3xx answers: a run with any is not a valid measurement. */
  errors: { connect: number; read: number; write: number; status: number; timeout: number }
}

export type WrkOptions = {
  url: string
  threads: number
  connections: number
  seconds: number
  headers?: Record<string, string>
  /** A Lua script of its own (it must define the report's `done`, see wrkScriptWithReport) and its arguments. */
  script?: string
  scriptArgs?: string[]
}

const LUA = path.join(import.meta.dir, 'wrk-report.lua')

/** Installs wrk from Debian when it is missing (root only), then returns its path. */
export async function ensureWrk(): Promise<string> {
  const found = Bun.which('wrk')
  if (found) return found
  if (process.getuid?.() !== 0) throw new Error('wrk is missing: install it with `apt-get install -y wrk`')
  console.log('[bench] wrk is missing: apt-get install -y wrk')
  const install = () => Bun.spawnSync(['apt-get', 'install', '-y', '-q', 'wrk'], { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  if (install().exitCode !== 0) {
    Bun.spawnSync(['apt-get', 'update', '-q'], { stdout: 'inherit', stderr: 'inherit' })
    if (install().exitCode !== 0) throw new Error('apt-get install -y wrk failed')
  }
  const installed = Bun.which('wrk')
  if (!installed) throw new Error('wrk still missing after apt-get install')
  return installed
}

export function wrkArgs(o: WrkOptions): string[] {
  const args = [`-t${o.threads}`, `-c${o.connections}`, `-d${o.seconds}s`, '--timeout', '5s']
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`)
  return [...args, '-s', o.script ?? LUA, o.url, ...(o.scriptArgs?.length ? ['--', ...o.scriptArgs] : [])]
}

/** A wrk script made of `lua` (request/init functions) followed by the report's `done` hook. */
export async function wrkScriptWithReport(lua: string, file: string): Promise<string> {
  await Bun.write(file, `${lua}\n${await Bun.file(LUA).text()}`)
  return file
}

/** Runs wrk once against a loopback URL and parses the Lua report line. */
export async function runWrk(wrk: string, o: WrkOptions): Promise<WrkResult> {
  const host = new URL(o.url).hostname
  if (host !== '127.0.0.1' && host !== 'localhost') throw new Error(`bench traffic goes to 127.0.0.1 only, not ${host}`)
  // wrk stops itself after -d; the timeout only ends one that hangs.
  const proc = Bun.spawn([wrk, ...wrkArgs(o)], { stdout: 'pipe', stderr: 'pipe', timeout: (o.seconds + 30) * 1000, killSignal: 'SIGKILL' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '))
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}\n${err}`)
  const raw = JSON.parse(line.slice('WRK_JSON '.length)) as {
    requests: number
    duration_us: number
    p50_us: number
    p90_us: number
    p99_us: number
    max_us: number
    errors: WrkResult['errors']
  }
  const seconds = raw.duration_us / 1e6
  const cpuUs = proc.resourceUsage()?.cpuTime.total
  return {
    clientCpu: cpuUs === undefined ? null : Number(cpuUs) / raw.duration_us,
    requests: raw.requests,
    seconds,
    rps: raw.requests / seconds,
    p50Ms: raw.p50_us / 1000,
    p90Ms: raw.p90_us / 1000,
    p99Ms: raw.p99_us / 1000,
    maxMs: raw.max_us / 1000,
    errors: raw.errors,
  }
}

export const errorCount = (r: WrkResult) => Object.values(r.errors).reduce((a, b) => a + b, 0)
