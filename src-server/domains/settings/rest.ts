import * as v from 'valibot'
import { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { LOGO_FIELD, SettingsPatch, SettingsRow } from '../../../src/domains/settings/schemas'
import { route } from '../../rest/route'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import * as settings from './service'

const tag = 'settings'

export const settingsRoutes = [
  route({
    method: 'get',
    path: '/settings',
    tag,
    summary: 'Company and plant settings (operator_hourly_cost is null without admin, production or reporting)',
    access: { scope: 'signed-in' },
    response: SettingsRow,
    handler: (ctx) => settings.getSettings(ctx, ctx.actor),
  }),
  route({
    method: 'patch',
    path: '/settings',
    tag,
    summary: 'Change some settings (operator_hourly_cost >= 0; idle_lock_minutes 1-1440)',
    access: { scope: 'admin' },
    body: SettingsPatch,
    response: SettingsRow,
    handler: (ctx, { body }) => settings.updateSettings(ctx, ctx.actor!, body),
  }),
  route({
    method: 'put',
    path: '/settings/logo',
    tag,
    summary: `Replace the company logo (multipart field ${LOGO_FIELD}: a square PNG, JPEG, WebP or GIF)`,
    access: { scope: 'admin' },
    multipart: { maxBytes: MAX_IMAGE_BYTES + 64 * 1024 },
    body: v.object({ [LOGO_FIELD]: v.file(`${LOGO_FIELD} must be a file`) }),
    response: SettingsRow,
    handler: (ctx, { body }) => settings.setCompanyLogo(ctx, ctx.actor!, body[LOGO_FIELD]),
  }),
  route({
    method: 'delete',
    path: '/settings/logo',
    tag,
    summary: 'Remove the company logo',
    access: { scope: 'admin' },
    response: SettingsRow,
    handler: (ctx) => settings.removeCompanyLogo(ctx, ctx.actor!),
  }),
  route({
    method: 'get',
    path: '/settings/default-phase',
    tag,
    summary: 'Default phase parameters, copied into a new phase (seconds for max_offline and std_processing_time)',
    access: { scope: ['admin', 'library'] },
    response: PhaseParameters,
    handler: (ctx) => settings.getDefaultPhaseParameters(ctx),
  }),
  route({
    method: 'put',
    path: '/settings/default-phase',
    tag,
    summary: 'Replace the default phase parameters (release_batch_qt > 0 when release_style is release_batch)',
    access: { scope: 'admin' },
    body: PhaseParameters,
    response: PhaseParameters,
    handler: (ctx, { body }) => settings.setDefaultPhaseParameters(ctx, ctx.actor!, body),
  }),
]
