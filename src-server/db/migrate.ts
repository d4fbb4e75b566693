import { promises as fs } from 'node:fs'
import path from 'node:path'
import { FileMigrationProvider, Migrator, type MigrationResultSet } from 'kysely/migration'
import type { Db } from './connect'

const MIGRATIONS_DIR = path.join(import.meta.dir, '..', '..', 'migrations')

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }) })
}

function applied({ error, results }: MigrationResultSet): string[] {
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : error}`)
  }
  return (results ?? []).map((r) => r.migrationName)
}

/** Runs every pending migration in order; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return applied(await migrator(db).migrateToLatest())
}

/** Runs the pending migrations up to and including `name` (upgrade tests start from an older schema). */
export async function migrateUpTo(db: Db, name: string): Promise<string[]> {
  return applied(await migrator(db).migrateTo(name))
}
