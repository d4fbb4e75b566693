import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * The PostgreSQL that multi-process tests use: TEST_DATABASE_URL when set (CI), otherwise a private
 * server started here (`startPrivatePostgres`). Several app processes cannot share one embedded
 * PGlite, so `bun run test` on a fresh clone without TEST_DATABASE_URL still runs these tests for
 * real instead of skipping them.
 */
let started: string | undefined

export async function multiProcessDatabaseUrl(): Promise<string> {
  const configured = process.env.TEST_DATABASE_URL
  if (configured) return configured
  started ??= (await startPrivatePostgres()).url
  return started
}

export type ShutdownMode = 'fast' | 'immediate'

/** A PostgreSQL server of this test process alone, which a test may stop, crash and start again. */
export type PrivatePostgres = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  /** `pg_ctl stop -m <mode>`: fast ends every session cleanly (57P01); immediate is a crash (recovery at the next start). */
  stop: (mode: ShutdownMode) => Promise<void>
  /** `pg_ctl start`, waiting until it accepts connections. */
  start: () => Promise<void>
}

function postgresBinDir(): string | undefined {
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  const candidates = [
    fromPgConfig.status === 0 ? fromPgConfig.stdout.trim() : '',
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ]
  return candidates.find((dir) => dir && existsSync(path.join(dir, 'initdb')))
}

/**
 * Starts a private server from the machine's PostgreSQL binaries (initdb + pg_ctl on a free port,
 * trust auth). It is stopped and its files removed once the test process is gone.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir()
  if (!bin) {
    throw new Error(
      'several-instance tests need PostgreSQL: set TEST_DATABASE_URL=postgres://user@127.0.0.1:5432/postgres, or install the server binaries (apt-get install postgresql) so the test can start its own',
    )
  }
  const base = mkdtempSync(path.join(tmpdir(), 'mes-test-pg-'))
  const data = path.join(base, 'data')
  mkdirSync(data)
  chmodSync(base, 0o755)
  chmodSync(data, 0o700)
  // initdb refuses to run as root: run the server as the postgres account then.
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    chownSync(data, uid, gid)
    chownSync(base, uid, gid)
  }
  const command = (cmd: string, args: string[]) => (asRoot ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args])
  const run = (cmd: string, args: string[]) => {
    const [head, ...rest] = command(cmd, args)
    const res = spawnSync(head!, rest, { encoding: 'utf8' })
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`)
  }
  // pg_ctl while tests run: never blocking the event loop (the app's sockets and streams go on).
  const ctl = async (args: string[]) => {
    const proc = Bun.spawn(command(path.join(bin, 'pg_ctl'), ['-D', data, ...args]), { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    if (code !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed: ${err || out}`)
  }
  const port = freePort()
  const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=200`
  const startArgs = ['-o', options, '-l', path.join(base, 'pg.log'), '-w', '-t', '60', 'start']
  run(path.join(bin, 'initdb'), ['-D', data, '--auth=trust', '--no-locale', '-E', 'UTF8', '-U', 'postgres'])
  run(path.join(bin, 'pg_ctl'), ['-D', data, ...startArgs])
  // A watcher outlives this process by design: it stops the server and removes its files once the
  // test process is gone, however it ended (bun test does not run exit handlers reliably).
  const stop = `${asRoot ? 'runuser -u postgres -- ' : ''}'${path.join(bin, 'pg_ctl')}' -D '${data}' -m immediate -w stop`
  Bun.spawn(['sh', '-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf '${base}'`], {
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'ignore',
  }).unref()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: (mode) => ctl(['-m', mode, '-w', '-t', '60', 'stop']),
    start: () => ctl(startArgs),
  }
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port as number
  probe.stop(true)
  return port
}
