/**
 * Whether an error means "PostgreSQL cannot be reached right now" (a restart, a crash, a network
 * cut, a full server) rather than a bug or a refused statement: such a request answers 503
 * DATABASE_UNAVAILABLE with Retry-After, and the same request later succeeds.
 *
 * What `pg` (8.x, on Bun) actually throws, measured against a real server:
 * - `pg_ctl stop/restart -m fast`: sessions get FATAL 57P01 "terminating connection due to
 *   administrator command" (in flight, and once more on an idle pooled connection that has not
 *   yet noticed), then "Connection terminated unexpectedly" (no code) as the socket closes;
 * - `pg_ctl stop -m immediate`, a killed postmaster, a crashed backend: "Connection terminated
 *   unexpectedly"; the postmaster's death itself is 57P01 "... due to unexpected postmaster exit";
 * - while the server is down: ECONNREFUSED from `connect` (ENOENT on a Unix socket whose file is
 *   gone; an AggregateError of these when a host name has several addresses);
 * - while it starts or recovers after a crash: FATAL 57P03 "the database system is starting up" /
 *   "is in recovery mode" (57P02 crash_shutdown for sessions a crashed sibling took down);
 * - a server that does not answer: "Connection terminated due to connection timeout" (a new
 *   connection past the pool's connectionTimeoutMillis), "timeout exceeded when trying to connect"
 *   (no pooled connection free in time), "timeout expired" (a lone client's connect timeout);
 * - a client whose connection broke earlier: "Client has encountered a connection error and is
 *   not queryable".
 * PGlite runs inside the process: it has no outage of its own (only "PGlite is closed" during a
 * shutdown, which is not this).
 */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery, shutting down)
  '53300', // too_many_connections
])

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN'])

const MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Query read timeout$/,
]

export function isDatabaseUnavailable(e: unknown, depth = 0): boolean {
  if (typeof e !== 'object' || e === null || depth > 5) return false
  const err = e as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  const code = typeof err.code === 'string' ? err.code : ''
  // SQLSTATE class 08: connection_exception (08000, 08001, 08003, 08004, 08006 ...).
  if (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true
  if (SOCKET_CODES.has(code) || (code === 'ENOENT' && err.syscall === 'connect')) return true
  if (typeof err.message === 'string' && MESSAGES.some((m) => m.test(err.message as string))) return true
  if (Array.isArray(err.errors) && err.errors.length > 0 && err.errors.every((x) => isDatabaseUnavailable(x, depth + 1))) return true
  return isDatabaseUnavailable(err.cause, depth + 1)
}
