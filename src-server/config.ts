import net from 'node:net'
import path from 'node:path'
import * as v from 'valibot'

/** `10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`: an address or a CIDR range of either family. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (!family || rest.length) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

const list = (s: string) => s.split(',').map((e) => e.trim()).filter(Boolean)

/** Every environment variable the server reads, parsed in one place. */
const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'PORT must be a whole number'), v.transform(Number), v.integer(), v.minValue(1, 'PORT must be 1-65535'), v.maxValue(65535, 'PORT must be 1-65535')),
    '8000',
  ),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')),
  ),
  MES_DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'MES_DATA_DIR must not be empty')), './data'),
  MES_ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(8, 'MES_ADMIN_PASSWORD must have at least 8 characters'))),
  API_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^\/[A-Za-z0-9_\-/]*[A-Za-z0-9_-]$/, 'API_PREFIX must look like /api')),
    '/api',
  ),
  MES_DEMO: v.optional(v.picklist(['0', '1', ''], 'MES_DEMO must be 1 or 0'), ''),
  MES_CLIENT_DIST: v.optional(v.pipe(v.string(), v.minLength(1))),
  MES_SWEEP_EVERY_MS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'MES_SWEEP_EVERY_MS must be a whole number'), v.transform(Number), v.minValue(50, 'MES_SWEEP_EVERY_MS must be at least 50')),
    '5000',
  ),
  MES_FLOW_RETRY_DELAY_SECONDS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'MES_FLOW_RETRY_DELAY_SECONDS must be a whole number'), v.transform(Number), v.minValue(1, 'MES_FLOW_RETRY_DELAY_SECONDS must be at least 1')),
    '10',
  ),
  MES_S3_BUCKET: v.optional(v.pipe(v.string(), v.minLength(1, 'MES_S3_BUCKET must not be empty'))),
  MES_S3_ENDPOINT: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\//, 'MES_S3_ENDPOINT must start with http:// or https://'))),
  MES_S3_REGION: v.optional(v.string()),
  MES_S3_ACCESS_KEY_ID: v.optional(v.string()),
  MES_S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  MES_S3_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._\/-]*$/, 'MES_S3_PREFIX may hold letters, digits, . _ - and /')), ''),
  MES_TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => list(s).every(isAddressOrRange), 'MES_TRUST_PROXY must be addresses or CIDR ranges separated by commas, like 127.0.0.1,10.0.0.0/8'),
    ),
    '',
  ),
  MES_TRUSTED_PROXY_HEADER: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]+$/, 'MES_TRUSTED_PROXY_HEADER must be a header name like X-Forwarded-For')),
    'X-Forwarded-For',
  ),
})

const DEFAULT_CLIENT_DIST = path.join(import.meta.dir, '..', 'dist')

export type Config = {
  port: number
  databaseUrl: string | undefined
  dataDir: string
  adminPassword: string | undefined
  apiPrefix: string
  demo: boolean
  /** The built client (Vite output); tests may point at another build. */
  clientDist: string
  /**
   * Reverse proxies (addresses or CIDR ranges) whose forwarded headers are believed: the client
   * address from `proxyClientHeader`, HTTPS from X-Forwarded-Proto. Empty: the socket decides.
   */
  trustedProxies: string[]
  proxyClientHeader: string
  /** How often the periodic sweeps run (one instance at a time holds their lock). */
  sweepEveryMs: number
  /** First webhook retry delay; later ones double (with jitter) up to an hour, for 24 h. */
  flowRetryDelaySeconds: number
  /** Files in an S3-compatible bucket instead of MES_DATA_DIR/files (several instances). */
  s3: { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; prefix: string } | null
}

export class ConfigError extends Error {}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(EnvSchema.entries).flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]]])),
  )
  const parsed = v.safeParse(EnvSchema, picked)
  if (!parsed.success) {
    const lines = parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`)
    throw new ConfigError(`Invalid environment:\n  ${lines.join('\n  ')}`)
  }
  const o = parsed.output
  return {
    port: o.PORT,
    databaseUrl: o.DATABASE_URL,
    dataDir: o.MES_DATA_DIR,
    adminPassword: o.MES_ADMIN_PASSWORD,
    apiPrefix: o.API_PREFIX,
    demo: o.MES_DEMO === '1',
    clientDist: o.MES_CLIENT_DIST ? path.resolve(o.MES_CLIENT_DIST) : DEFAULT_CLIENT_DIST,
    trustedProxies: list(o.MES_TRUST_PROXY),
    proxyClientHeader: o.MES_TRUSTED_PROXY_HEADER.toLowerCase(),
    sweepEveryMs: o.MES_SWEEP_EVERY_MS,
    flowRetryDelaySeconds: o.MES_FLOW_RETRY_DELAY_SECONDS,
    s3: o.MES_S3_BUCKET
      ? {
          bucket: o.MES_S3_BUCKET,
          endpoint: o.MES_S3_ENDPOINT,
          region: o.MES_S3_REGION,
          accessKeyId: o.MES_S3_ACCESS_KEY_ID,
          secretAccessKey: o.MES_S3_SECRET_ACCESS_KEY,
          prefix: o.MES_S3_PREFIX,
        }
      : null,
  }
}
