import { afterAll, beforeAll } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Subprocess } from 'bun'
import pg from 'pg'
import { openPostgres, type OpenDatabase } from '../db/connect'
import { ensureTemplate, templateName, withDatabase } from './database'
import { multiProcessDatabaseUrl } from './private-postgres'

/**
 * Several real app processes (`bun src-server/main.ts`) on ONE fresh PostgreSQL database, as a
 * plant runs them behind a load balancer. PostgreSQL from TEST_DATABASE_URL or a private server
 * (PGlite is one process only: see private-postgres.ts).
 *
 *   const c = useInstances({ count: 2, env: { MES_SWEEP_EVERY_MS: '200' } })
 *   test('...', async () => {
 *     const token = await c.adminToken()              // a session valid on every instance
 *     const res = await c.a.request('POST', '/api/...', { token, body: {...} })
 *     await c.b.waitForOutput(/some log line/)
 *     await c.a.kill9()                               // SIGKILL, as a crash
 *     const c3 = await c.start('c')                   // one more instance on the same database
 *   })
 *
 * Each instance has its own MES_DATA_DIR (its own "disk") unless `sharedDataDir`; `env` is
 * given to every instance (e.g. the S3 variables), `start(name, env)` adds per-instance env.
 */
export const INSTANCES_ADMIN_PASSWORD = 'instances-admin-1'

export type InstanceResponse = { status: number; body: any; headers: Headers }
export type InstanceRequestOpts = { token?: string; body?: unknown; headers?: Record<string, string> }

export type AppInstance = {
  name: string
  port: number
  /** `http://127.0.0.1:<port>` */
  url: string
  dataDir: string
  pid: number
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string
  /** Resolves with the output once a line matches (rejects after timeoutMs, default 15 s). */
  waitForOutput: (re: RegExp, timeoutMs?: number) => Promise<string>
  /** A JSON request to this instance (origin header set as the browser would). */
  request: (method: string, p: string, opts?: InstanceRequestOpts) => Promise<InstanceResponse>
  /** SIGKILL (a crash: nothing is flushed, no shutdown hook) and wait for the exit. */
  kill9: () => Promise<void>
  /** SIGTERM (graceful shutdown) and wait for the exit. */
  stop: () => Promise<void>
  exited: Promise<number>
  /** False once the process has exited. */
  alive: () => boolean
}

export type Instances = {
  /** The fresh database's URL (every instance uses it). */
  databaseUrl: string
  /** A direct connection for assertions and fixtures. */
  db: OpenDatabase['db']
  instances: AppInstance[]
  /** instances[0] and instances[1] */
  a: AppInstance
  b: AppInstance
  /** One more instance on the same database. */
  start: (name: string, env?: Record<string, string>) => Promise<AppInstance>
  /** Signs the admin in (password INSTANCES_ADMIN_PASSWORD) through an instance, returns the bearer token. */
  adminToken: (via?: AppInstance) => Promise<string>
  close: () => Promise<void>
}

export type InstancesOptions = {
  count?: number
  /** The PostgreSQL server (an admin URL) to make the database on; default multiProcessDatabaseUrl(). */
  server?: string
  env?: Record<string, string>
  sharedDataDir?: boolean
}

const ROOT = path.join(import.meta.dir, '..', '..')

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port as number
  probe.stop(true)
  return port
}

/** A new database made from the migrated template (so no instance migrates; all start equal). */
async function freshDatabase(server?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = server ?? (await multiProcessDatabaseUrl())
  const template = templateName()
  await ensureTemplate(adminUrl, template)
  const name = `mes_i_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database "${name}" template "${template}"`)
  await admin.end()
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl })
      await dropper.connect()
      await dropper.query(`drop database if exists "${name}" with (force)`)
      await dropper.end()
    },
  }
}

async function spawnInstance(name: string, env: Record<string, string>, dataDir: string): Promise<AppInstance> {
  const port = await freePort()
  const proc: Subprocess<'ignore', 'pipe', 'pipe'> = Bun.spawn(['bun', path.join(ROOT, 'src-server', 'main.ts')], {
    cwd: ROOT,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...process.env,
      MES_CLIENT_DIST: path.join(dataDir, 'no-client'),
      MES_ADMIN_PASSWORD: INSTANCES_ADMIN_PASSWORD,
      MES_DATA_DIR: dataDir,
      ...env,
      PORT: String(port),
      MES_INSTANCE_NAME: name,
    },
  })
  let out = ''
  const waiters = new Set<() => void>()
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) {
      out += decoder.decode(chunk, { stream: true })
      for (const w of waiters) w()
    }
  }
  void pump(proc.stdout)
  void pump(proc.stderr)
  const url = `http://127.0.0.1:${port}`
  const exited = proc.exited
  const instance: AppInstance = {
    name,
    port,
    url,
    dataDir,
    pid: proc.pid,
    exited,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    output: () => out,
    waitForOutput(re, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (re.test(out)) {
            waiters.delete(check)
            clearTimeout(timer)
            resolve(out)
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`instance ${name}: no output matching ${re} within ${timeoutMs} ms; output:\n${out}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    async request(method, p, opts = {}) {
      const headers: Record<string, string> = { origin: url, ...opts.headers }
      if (opts.token) headers.authorization = `Bearer ${opts.token}`
      let body: BodyInit | undefined
      if (opts.body instanceof FormData || typeof opts.body === 'string' || opts.body instanceof Uint8Array) body = opts.body as BodyInit
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body)
        headers['content-type'] ??= 'application/json'
      }
      const res = await fetch(`${url}${p}`, { method, headers, body })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers }
    },
    async kill9() {
      proc.kill('SIGKILL')
      await exited
    },
    async stop() {
      proc.kill('SIGTERM')
      await exited
    },
  }
  // Ready when the health path answers (or fail with what it printed).
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`instance ${name} exited with ${proc.exitCode}:\n${out}`)
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) break
    } catch {}
    if (Date.now() > deadline) {
      proc.kill('SIGKILL')
      throw new Error(`instance ${name} did not answer on ${url} within 30 s:\n${out}`)
    }
    await Bun.sleep(100)
  }
  return instance
}

/** Starts `count` (default 2) instances one after the other on one fresh database. */
export async function startInstances(opts: InstancesOptions = {}): Promise<Instances> {
  const database = await freshDatabase(opts.server)
  const direct = openPostgres(database.url, 4)
  const root = mkdtempSync(path.join(tmpdir(), 'mes-instances-'))
  const instances: AppInstance[] = []
  const dirFor = (name: string) => (opts.sharedDataDir ? path.join(root, 'shared') : path.join(root, name))
  const start = async (name: string, env: Record<string, string> = {}) => {
    const instance = await spawnInstance(name, { ...opts.env, ...env, DATABASE_URL: database.url }, dirFor(name))
    instances.push(instance)
    return instance
  }
  const cluster: Instances = {
    databaseUrl: database.url,
    db: direct.db,
    instances,
    get a() {
      return instances[0]!
    },
    get b() {
      return instances[1]!
    },
    start,
    async adminToken(via) {
      const target = via ?? instances.find((i) => i.alive())!
      const res = await target.request('POST', '/api/login', { body: { username: 'admin', password: INSTANCES_ADMIN_PASSWORD } })
      if (res.status !== 200) throw new Error(`admin sign-in through ${target.name}: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.detail.token as string
    },
    async close() {
      for (const i of instances) {
        if (i.alive()) await i.kill9()
      }
      await direct.close()
      await database.drop()
      rmSync(root, { recursive: true, force: true })
    },
  }
  try {
    // One after the other: the first creates the admin user, the next ones find it.
    for (let n = 0; n < (opts.count ?? 2); n++) await start(String.fromCharCode(97 + n))
  } catch (e) {
    await cluster.close()
    throw e
  }
  return cluster
}

/** `startInstances` for one test file: started in beforeAll, killed and dropped in afterAll. */
export function useInstances(opts: InstancesOptions = {}): Instances {
  let cluster: Instances | undefined
  const proxy = new Proxy({} as Instances, {
    get(_t, key) {
      if (!cluster) throw new Error('instances not started yet (use inside a test)')
      return (cluster as any)[key]
    },
  })
  beforeAll(async () => {
    cluster = await startInstances(opts)
  }, 120_000)
  afterAll(async () => {
    await cluster?.close()
  }, 30_000)
  return proxy
}
