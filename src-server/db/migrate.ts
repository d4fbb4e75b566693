import { promises as fs } from 'node:fs'
import path from 'node:path'
import { FileMigrationProvider, Migrator } from 'kysely/migration'
import type { Db } from './connect'

const MIGRATIONS_DIR = path.join(import.meta.dir, '..', '..', 'migrations')

/** Runs every pending migration in order; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
  })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : error}`)
  }
  return (results ?? []).map((r) => r.migrationName)
}
