import path from 'node:path'
import { ConfigError, readConfig } from '../src-server/config'
import { openPglite, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { chainVerdict, verifyChain } from '../src-server/domains/audit/chain'

/**
 * `bun run verify-audit`: walks the event chain of the app's database (DATABASE_URL, or the
 * embedded one in MES_DATA_DIR) and says whether it is intact. Exit 0 when intact, 1 when not.
 */
try {
  const config = readConfig()
  const database = config.databaseUrl ? openPostgres(config.databaseUrl, 2) : await openPglite(path.join(config.dataDir, 'pglite'))
  try {
    await migrateToLatest(database.db)
    const check = await verifyChain(database.db)
    console.log(chainVerdict(check, 'it'))
    process.exitCode = check.ok ? 0 : 1
  } finally {
    await database.close()
  }
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : (e as Error).message)
  process.exitCode = 2
}
