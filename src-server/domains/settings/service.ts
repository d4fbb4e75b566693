import { hasScope } from '../../../src/auth/scopes'
import {
  type PhaseParameters,
  phaseParametersProblem,
  withPhaseDefaults,
} from '../../../src/domains/process/phase-parameters'
import { COST_SCOPES, type GeneralSettings, type SettingsPatch, type SettingsRow } from '../../../src/domains/settings/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest } from '../../errors'
import { inspectImage } from '../../storage/images'
import { appendEvent } from '../events/service'
import { editData } from '../events/changes'
import { deleteSetting, lockSettings, readSetting, readSettings, SETTING_KEYS, writeSetting, writeSettings } from './queries'

type Change = { from: unknown; to: unknown }

/** The keys whose value differs, with before and after: what an event records. */
function diff<T extends object>(before: T, after: Partial<T>): Record<string, Change> {
  const changes: Record<string, Change> = {}
  for (const [key, to] of Object.entries(after)) {
    if (to === undefined) continue
    const from = (before as Record<string, unknown>)[key]
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to }
  }
  return changes
}

const mediaUrl = (key: unknown) => (typeof key === 'string' && key ? `/media/${key}` : null)

async function settingsRow(db: Db, actor: Actor | null): Promise<SettingsRow> {
  const [general, logo] = await Promise.all([readSettings(db), readSetting(db, SETTING_KEYS.companyLogo)])
  const seesCost = !actor || COST_SCOPES.some((s) => hasScope(actor.scope, s))
  return { ...general, operator_hourly_cost: seesCost ? general.operator_hourly_cost : null, logo_url: mediaUrl(logo) }
}

/** `GET settings`: every signed-in user; the operator hourly cost only for COST_SCOPES. */
export function getSettings(svc: Services, actor: Actor | null): Promise<SettingsRow> {
  return settingsRow(svc.db, actor)
}

/** `PATCH settings` (admin): the company and "other" tabs. One event lists what changed. */
export async function updateSettings(svc: Services, actor: Actor, patch: SettingsPatch): Promise<SettingsRow> {
  if (patch.operator_hourly_cost !== undefined && patch.operator_hourly_cost < 0) {
    throw badRequest('OPERATOR_HOURLY_COST_NEGATIVE', 'operator hourly cost must be >= 0')
  }
  const clean: Partial<GeneralSettings> = { ...patch }
  if (clean.company_name !== undefined) clean.company_name = clean.company_name.trim()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSettings(trx)
    const changes = diff(await readSettings(trx), clean)
    if (Object.keys(changes).length === 0) return
    await writeSettings(trx, Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.to])) as Partial<GeneralSettings>)
    await appendEvent(trx, actor, { event_type: 'SETTINGS_UPDATED', subject_type: 'settings', subject_key: 'general', data: { changes } }, now)
  })
  return settingsRow(svc.db, actor)
}

/** The parameters a new phase starts with (admin/general/default-phase). */
export async function getDefaultPhaseParameters(svc: Pick<Services, 'db'>): Promise<PhaseParameters> {
  return withPhaseDefaults(await readSetting(svc.db, SETTING_KEYS.defaultPhaseParameters))
}

/** `PUT settings/default-phase` (admin): the whole set, checked, with an event listing the changes. */
export async function setDefaultPhaseParameters(svc: Services, actor: Actor, input: PhaseParameters): Promise<PhaseParameters> {
  const problem = phaseParametersProblem(input)
  if (problem) throw badRequest(problem, 'release_batch_qt must be > 0 when release_style is release_batch')
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSettings(trx)
    const before = withPhaseDefaults(await readSetting(trx, SETTING_KEYS.defaultPhaseParameters))
    const changes = diff(before, input)
    if (Object.keys(changes).length === 0) return
    await writeSetting(trx, SETTING_KEYS.defaultPhaseParameters, input)
    await appendEvent(
      trx,
      actor,
      { event_type: 'DEFAULT_PHASE_PARAMETERS_UPDATED', subject_type: 'settings', subject_key: 'default_phase', data: { changes } },
      now,
    )
  })
  return getDefaultPhaseParameters(svc)
}

/**
 * `PUT settings/logo` (admin): the bytes must decode as an image (never trusting the client's
 * type) with a 1:1 aspect ratio (SPEC 5). The previous file is removed once the new one is in.
 */
export async function setCompanyLogo(svc: Services, actor: Actor, file: File): Promise<SettingsRow> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const image = inspectImage(bytes)
  if (image.width !== image.height) {
    throw badRequest('LOGO_NOT_SQUARE', 'the logo must be square (1:1)', { width: image.width, height: image.height })
  }
  const now = svc.clock.now()
  const storageKey = `settings/logo-${now.getTime()}-${crypto.randomUUID().slice(0, 8)}.${image.type}`
  await svc.files.put(storageKey, bytes)
  let previous: unknown
  try {
    previous = await svc.db.transaction().execute(async (trx) => {
      await lockSettings(trx)
      const old = await readSetting(trx, SETTING_KEYS.companyLogo)
      await writeSetting(trx, SETTING_KEYS.companyLogo, storageKey)
      await appendEvent(
        trx,
        actor,
        {
          event_type: 'COMPANY_LOGO_CHANGED',
          subject_type: 'settings',
          subject_key: 'company',
          data: editData({ company_logo: { from: old ?? null, to: storageKey } }, { type: image.type, width: image.width, height: image.height, bytes: bytes.byteLength }),
        },
        now,
      )
      return old
    })
  } catch (e) {
    await svc.files.delete(storageKey).catch(() => {})
    throw e
  }
  if (typeof previous === 'string' && previous) await svc.files.delete(previous).catch(() => {})
  return settingsRow(svc.db, actor)
}

/** `DELETE settings/logo` (admin): no logo any more (nothing happens when there is none). */
export async function removeCompanyLogo(svc: Services, actor: Actor): Promise<SettingsRow> {
  const now = svc.clock.now()
  const previous = await svc.db.transaction().execute(async (trx) => {
    await lockSettings(trx)
    const old = await readSetting(trx, SETTING_KEYS.companyLogo)
    if (old === undefined) return undefined
    await deleteSetting(trx, SETTING_KEYS.companyLogo)
    await appendEvent(trx, actor, { event_type: 'COMPANY_LOGO_REMOVED', subject_type: 'settings', subject_key: 'company' }, now)
    return old
  })
  if (typeof previous === 'string' && previous) await svc.files.delete(previous).catch(() => {})
  return settingsRow(svc.db, actor)
}
