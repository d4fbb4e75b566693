import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { GenealogyInput, SerialListInput, SerialPatchInput, SerialUnlinkInput } from '../../../src/domains/serials/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router } from '../../trpc/init'
import * as serials from './service'
import { getWorkOrderSerials } from './work-order-serials'

/**
 * Serials are the traceability area's (SPEC 6); production and quality read them too (a work
 * order's serials, an issue raised on a serial). Corrections are traceability staff's only.
 */
export const SERIAL_READERS = ['traceability', 'production', 'quality'] as const satisfies readonly Scope[]
export const SERIAL_EDITORS = ['traceability'] as const satisfies readonly Scope[]

export const serialsRouter = router({
  list: procedure({ scope: SERIAL_READERS })
    .input(SerialListInput)
    .query(({ ctx, input }) => serials.listSerials(ctx, input)),
  get: procedure({ scope: SERIAL_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => serials.getSerial(ctx, input.key)),
  genealogy: procedure({ scope: SERIAL_READERS })
    .input(v.object({ key: Key, ...GenealogyInput.entries }))
    .query(({ ctx, input }) => serials.getGenealogy(ctx, input.key, input.direction)),
  patch: procedure({ scope: SERIAL_EDITORS })
    .input(v.object({ key: Key, patch: SerialPatchInput }))
    .mutation(({ ctx, input }) => serials.editSerial(ctx, ctx.actor!, input.key, input.patch)),
  unlink: procedure({ scope: SERIAL_EDITORS })
    .input(v.object({ link_key: Key, ...SerialUnlinkInput.entries }))
    .mutation(({ ctx, input }) => serials.unlinkSerial(ctx, ctx.actor!, input.link_key, input.reason)),
  /** A work order's Tracciabilità tab: serials it produced and component serials it consumed. */
  workOrder: procedure({ scope: SERIAL_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => getWorkOrderSerials(ctx, input.key)),
})
