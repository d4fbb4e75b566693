import { DEFAULT_SETTINGS, type GeneralSettings } from '../../../src/domains/settings/schemas'
import type { Db } from '../../db/connect'

export async function readSettings(db: Db): Promise<GeneralSettings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', Object.keys(DEFAULT_SETTINGS)).execute()
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]))
  return { ...DEFAULT_SETTINGS, ...stored } as GeneralSettings
}

export async function writeSettings(db: Db, patch: Partial<GeneralSettings>): Promise<void> {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute()
  }
}
