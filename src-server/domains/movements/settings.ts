import type { WarehouseSettings, WarehouseSettingsPatch, WarehouseSettingsRow } from '../../../src/domains/movements/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { findPosition } from '../positions/service'
import { lockSettings, readSetting, readSettings, writeSetting, writeSettings } from '../settings/queries'

/** Settings row key of the warehouse settings beside the general `inventory_management` flag. */
const WAREHOUSE_KEY = 'warehouse'
type Stored = Omit<WarehouseSettings, 'inventory_management'>
const DEFAULTS: Stored = { default_production_position_key: null, default_consumption_position_key: null, negative_stock_allowed: false }

/**
 * The warehouse settings (SPEC 3): inventory management on/off, the default production position
 * (where completed pieces arrive) and consumption position (where components are taken from),
 * and whether stock may go below zero. Read inside the caller's transaction when it moves stock.
 */
export async function readWarehouseSettings(db: Db): Promise<WarehouseSettings> {
  const [general, stored] = await Promise.all([readSettings(db), readSetting(db, WAREHOUSE_KEY)])
  const own = { ...DEFAULTS, ...(typeof stored === 'object' && stored ? (stored as Partial<Stored>) : {}) }
  return { inventory_management: general.inventory_management, ...own }
}

async function settingsRow(db: Db): Promise<WarehouseSettingsRow> {
  const s = await readWarehouseSettings(db)
  const code = async (key: string | null) => (key ? ((await findPosition(db, key))?.code ?? null) : null)
  return { ...s, default_production_position_code: await code(s.default_production_position_key), default_consumption_position_code: await code(s.default_consumption_position_key) }
}

export function getWarehouseSettings(svc: Pick<Services, 'db'>): Promise<WarehouseSettingsRow> {
  return settingsRow(svc.db)
}

/** `PATCH settings/warehouse` (admin): positions must exist and be active; one event lists the changes. */
export async function updateWarehouseSettings(svc: Services, actor: Actor, patch: WarehouseSettingsPatch): Promise<WarehouseSettingsRow> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSettings(trx)
    for (const field of ['default_production_position_key', 'default_consumption_position_key'] as const) {
      const key = patch[field]
      if (!key) continue
      const pos = await findPosition(trx, key)
      if (!pos) throw unprocessable('UNKNOWN_POSITION', `${field.replace('_key', '')} not found`, { field })
      if (!pos.active) throw unprocessable('POSITION_INACTIVE', `position ${pos.code} is deactivated`, { field })
    }
    const before = await readWarehouseSettings(trx)
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    for (const [k, to] of Object.entries(patch)) {
      const from = before[k as keyof WarehouseSettings]
      if (to !== undefined && to !== from) changes[k] = { from, to }
    }
    if (Object.keys(changes).length === 0) return
    if (changes.inventory_management) await writeSettings(trx, { inventory_management: patch.inventory_management })
    const { inventory_management: _, ...own } = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, x]) => x !== undefined)) }
    await writeSetting(trx, WAREHOUSE_KEY, own)
    await appendEvent(trx, actor, { event_type: 'WAREHOUSE_SETTINGS_UPDATED', subject_type: 'settings', subject_key: 'warehouse', data: { changes } }, now)
  })
  return settingsRow(svc.db)
}
