import * as v from 'valibot'
import { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { LOGO_FIELD, SettingsPatch, SettingsRow } from '../../../src/domains/settings/schemas'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import * as settings from './service'

const admin = { scope: 'admin' } as const

export const settingsApi = useCases('settings', {
  /** Every signed-in user: production, operator, traceability and warehouse screens read the flags. */
  get: query({
    summary: 'Company and plant settings (operator_hourly_cost is null without admin, production or reporting)',
    access: { scope: 'signed-in' },
    response: SettingsRow,
    rest: { method: 'get', path: '/settings' },
    run: (ctx) => settings.getSettings(ctx, ctx.actor),
  }),
  update: mutation({
    summary: 'Change some settings (operator_hourly_cost >= 0; idle_lock_minutes 1-1440)',
    access: admin,
    input: SettingsPatch,
    response: SettingsRow,
    rest: { method: 'patch', path: '/settings' },
    run: (ctx, input) => settings.updateSettings(ctx, ctx.actor, input),
  }),
  setLogo: restOnly({
    summary: `Replace the company logo (multipart field ${LOGO_FIELD}: a square PNG, JPEG, WebP or GIF)`,
    access: admin,
    input: v.object({ [LOGO_FIELD]: v.file(`${LOGO_FIELD} must be a file`) }),
    response: SettingsRow,
    rest: { method: 'put', path: '/settings/logo', multipart: { maxBytes: MAX_IMAGE_BYTES + 64 * 1024 } },
    run: (ctx, input) => settings.setCompanyLogo(ctx, ctx.actor, input[LOGO_FIELD]),
  }),
  removeLogo: mutation({
    summary: 'Remove the company logo',
    access: admin,
    response: SettingsRow,
    rest: { method: 'delete', path: '/settings/logo' },
    run: (ctx) => settings.removeCompanyLogo(ctx, ctx.actor),
  }),
  /** The library copies these into a new phase. */
  defaultPhase: query({
    summary: 'Default phase parameters, copied into a new phase (seconds for max_offline and std_processing_time)',
    access: { scope: ['admin', 'library'] },
    response: PhaseParameters,
    rest: { method: 'get', path: '/settings/default-phase' },
    run: (ctx) => settings.getDefaultPhaseParameters(ctx),
  }),
  setDefaultPhase: mutation({
    summary: 'Replace the default phase parameters (release_batch_qt > 0 when release_style is release_batch)',
    access: admin,
    input: PhaseParameters,
    response: PhaseParameters,
    rest: { method: 'put', path: '/settings/default-phase' },
    run: (ctx, input) => settings.setDefaultPhaseParameters(ctx, ctx.actor, input),
  }),
})
