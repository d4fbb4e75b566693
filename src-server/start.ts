import path from 'node:path'
import { systemClock } from './clock'
import type { Config } from './config'
import type { Services } from './context'
import { openPglite, openPostgres, type OpenDatabase } from './db/connect'
import { migrateToLatest } from './db/migrate'
import { ensureRollupZone, plantTimeZone } from './domains/reports/service'
import { ensureAdmin } from './seed/admin'
import { seedDemo } from './seed/demo'
import { localFileStore } from './storage/file-store'
import { s3FileStore } from './storage/s3-file-store'

/** Opens and migrates the database and prepares everything the app needs, without a port. */
export async function prepareServices(config: Config, log: (line: string) => void): Promise<{ svc: Services; database: OpenDatabase }> {
  const database = config.databaseUrl ? openPostgres(config.databaseUrl) : await openPglite(path.join(config.dataDir, 'pglite'))
  if (database.kind === 'pglite') {
    log(`database: embedded PGlite in ${path.join(config.dataDir, 'pglite')} - for trying and development only (no fsync);`)
    log('          set DATABASE_URL=postgres://... to run a plant on PostgreSQL')
  } else {
    log(`database: PostgreSQL (${redact(config.databaseUrl as string)})`)
  }
  if (config.s3) log(`files: S3-compatible bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}`)
  const applied = await migrateToLatest(database.db)
  if (applied.length) log(`migrations applied: ${applied.join(', ')}`)
  // Reports: the daily rollup cuts plant days in the server's zone (rebuilt here when it changed).
  await ensureRollupZone(database.db, plantTimeZone())
  const svc: Services = {
    db: database.db,
    dbKind: database.kind,
    clock: systemClock,
    config,
    files: config.s3 ? s3FileStore(config.s3) : localFileStore(path.join(config.dataDir, 'files')),
  }
  await ensureAdmin(svc, log)
  if (config.demo) await seedDemo(svc, log)
  return { svc, database }
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
