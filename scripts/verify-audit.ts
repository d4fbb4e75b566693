import path from 'node:path'
import { ConfigError, readConfig } from '../src-server/config'
import { openPglite, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { verifyAudit } from '../src-server/domains/audit/verify-command'

/**
 * `bun run verify-audit [--anchor FILE]`: walks the event chain of the app's database
 * (DATABASE_URL, or the embedded one in MES_DATA_DIR) and says whether it is intact; with an
 * anchor file (written daily into the file store, docs/audit.md), also whether the chain still has
 * the anchored hash at the anchored number. Exit 0 when all holds, 1 when not, 2 on a usage error.
 */
try {
  const args = process.argv.slice(2)
  const at = args.indexOf('--anchor')
  const anchorPath = at === -1 ? undefined : args[at + 1]
  if (at !== -1 && !anchorPath) throw new ConfigError('--anchor needs a file: bun run verify-audit --anchor audit-anchors/<file>.json')
  const anchorText = anchorPath ? await Bun.file(anchorPath).text() : undefined
  const config = readConfig()
  const database = config.databaseUrl ? openPostgres(config.databaseUrl, 2) : await openPglite(path.join(config.dataDir, 'pglite'))
  try {
    await migrateToLatest(database.db)
    const { lines, ok } = await verifyAudit(database.db, anchorText, 'it')
    for (const line of lines) console.log(line)
    process.exitCode = ok ? 0 : 1
  } finally {
    await database.close()
  }
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : (e as Error).message)
  process.exitCode = 2
}
