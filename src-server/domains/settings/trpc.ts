import { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { SettingsPatch } from '../../../src/domains/settings/schemas'
import { router, scoped, signedIn } from '../../trpc/init'
import * as settings from './service'

export const settingsRouter = router({
  /** Every signed-in user: production, operator, traceability and warehouse screens read the flags. */
  get: signedIn.query(({ ctx }) => settings.getSettings(ctx, ctx.actor)),
  update: scoped('admin')
    .input(SettingsPatch)
    .mutation(({ ctx, input }) => settings.updateSettings(ctx, ctx.actor, input)),
  /** The library copies these into a new phase. */
  defaultPhase: scoped('admin', 'library').query(({ ctx }) => settings.getDefaultPhaseParameters(ctx)),
  setDefaultPhase: scoped('admin')
    .input(PhaseParameters)
    .mutation(({ ctx, input }) => settings.setDefaultPhaseParameters(ctx, ctx.actor, input)),
  removeLogo: scoped('admin').mutation(({ ctx }) => settings.removeCompanyLogo(ctx, ctx.actor)),
})
