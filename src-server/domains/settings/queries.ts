import { sql } from 'kysely'
import { DEFAULT_SETTINGS, type GeneralSettings } from '../../../src/domains/settings/schemas'
import type { Db } from '../../db/connect'

/**
 * Settings rows: one JSON value per key. General settings use their own names as keys
 * (`idle_lock_minutes` is also read by auth/sessions.ts); the others are named here.
 */
export const SETTING_KEYS = {
  defaultPhaseParameters: 'default_phase_parameters',
  companyLogo: 'company_logo',
} as const

export async function readSettings(db: Db): Promise<GeneralSettings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', Object.keys(DEFAULT_SETTINGS)).execute()
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]))
  return { ...DEFAULT_SETTINGS, ...stored } as GeneralSettings
}

/** Stores each key's JSON value, inserting or replacing, in one statement (undefined values are skipped). */
async function upsertSettings(db: Db, entries: [string, unknown][]): Promise<void> {
  const rows = entries.flatMap(([key, value]) => (value === undefined ? [] : [{ key, value: JSON.stringify(value) }]))
  if (rows.length === 0) return
  await db
    .insertInto('settings')
    .values(rows)
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql`excluded.value` }))
    .execute()
}

export async function writeSettings(db: Db, patch: Partial<GeneralSettings>): Promise<void> {
  await upsertSettings(db, Object.entries(patch))
}

export async function readSetting(db: Db, key: string): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value
}

export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  await upsertSettings(db, [[key, value]])
}

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', key).execute()
}

/**
 * Serialises settings changes (inside a transaction) so each event's before/after is exact
 * even when two admins save at once. Settings rows may not exist yet, so rows cannot be locked.
 */
export async function lockSettings(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('mes.settings'))`.execute(db)
}
