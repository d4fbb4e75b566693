import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { Genealogy, GenealogyInput, SerialDetail, SerialList, SerialListInput, SerialPatchInput, SerialRow, SerialUnlinkInput } from '../../../src/domains/serials/schemas'
import { WorkOrderSerials } from '../../../src/domains/serials/work-order-serials'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as serials from './service'
import { getWorkOrderSerials } from './work-order-serials'

/**
 * Serials are the traceability area's (SPEC 6); production and quality read them too (a work
 * order's serials, an issue raised on a serial). Corrections are traceability staff's only.
 */
export const SERIAL_READERS = ['traceability', 'production', 'quality'] as const satisfies readonly Scope[]
export const SERIAL_EDITORS = ['traceability'] as const satisfies readonly Scope[]

const read = { scope: SERIAL_READERS }
const edit = { scope: SERIAL_EDITORS }
const ByKey = v.object({ key: Key })

export const serialsApi = useCases('serials', {
  list: query({
    summary:
      'Serials with params: search (code starts with, any case, at least the autocomplete_min_chars_serials setting), code (exact), product_key, work_order_key, phase_key, state (temporary|final), from/to (creation days); the first 100 and the total (counted up to 10,000, total_capped beyond)',
    access: read,
    input: SerialListInput,
    response: SerialList,
    rest: { method: 'get', path: '/serial' },
    run: (ctx, input) => serials.listSerials(ctx, input),
  }),
  get: query({
    summary: 'One serial: its data, where it was made (work order, job, batch, phase, operator, time), its components, what it is inside and its history',
    access: read,
    input: ByKey,
    response: SerialDetail,
    rest: { method: 'get', path: '/serial/{key}' },
    run: (ctx, input) => serials.getSerial(ctx, input.key),
  }),
  genealogy: query({
    summary:
      'Genealogy of a serial, depth-first (depth 0 = the serial): backward = everything it is made of, every level; forward = everything it went into',
    access: read,
    input: v.object({ key: Key, ...GenealogyInput.entries }),
    response: Genealogy,
    rest: { method: 'get', path: '/serial/{key}/genealogy' },
    run: (ctx, input) => serials.getGenealogy(ctx, input.key, input.direction),
  }),
  patch: mutation({
    summary:
      'Correct a serial: code (only with the serial_code_edit setting; a used code is 409 SERIAL_ALREADY_PRESENT) and/or data; reason required (SERIAL_REASON_REQUIRED), recorded with the old and new values in SERIAL_UPDATED; ' +
      'signature: {password} when the settings require corrections to be signed (signature_serial_correction: 422 SIGNATURE_REQUIRED, 400 SIGNATURE_INVALID, 429 LOGIN_THROTTLED)',
    access: edit,
    input: v.object({ key: Key, patch: SerialPatchInput }),
    response: SerialRow,
    rest: { method: 'patch', path: '/serial/{key}', body: 'patch' },
    run: (ctx, input) => serials.editSerial(ctx, ctx.actor, input.key, input.patch, ctx.client.ip),
  }),
  unlink: mutation({
    summary: 'Take a serial out of the serial it is inside (only with the serial_delete setting); reason required, recorded in SERIAL_UPDATED on both serials',
    access: edit,
    input: v.object({ link_key: Key, ...SerialUnlinkInput.entries }),
    response: v.object({ _key: v.string() }),
    rest: { method: 'delete', path: '/serial-link/{key}', params: { key: 'link_key' }, jsonBody: true },
    run: (ctx, input) => serials.unlinkSerial(ctx, ctx.actor, input.link_key, input.reason),
  }),
  workOrder: query({
    summary:
      "A work order's serials (its Tracciabilità tab): the serials it produced (with how many components each holds) and the component serials it consumed (linked into a serial it produced or in one of its batches); the first 500 of each and the totals",
    access: read,
    input: ByKey,
    response: WorkOrderSerials,
    rest: { method: 'get', path: '/work-order/{id}/serials', params: { id: 'key' } },
    run: (ctx, input) => getWorkOrderSerials(ctx, input.key),
  }),
})
