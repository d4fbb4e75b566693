import * as v from 'valibot'
import { Genealogy, GenealogyInput, SerialDetail, SerialList, SerialListInput, SerialPatchInput, SerialRow, SerialUnlinkInput } from '../../../src/domains/serials/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as serials from './service'
import { SERIAL_EDITORS, SERIAL_READERS } from './trpc'

const tag = 'serials'
const KeyParams = v.object({ key: Key })

export const serialRoutes = [
  route({
    method: 'get',
    path: '/serial',
    tag,
    summary:
      'Serials with params: search (code starts with, any case, at least the autocomplete_min_chars_serials setting), code (exact), product_key, work_order_key, phase_key, state (temporary|final), from/to (creation days); the first 100 and the total (counted up to 10,000, total_capped beyond)',
    access: { scope: SERIAL_READERS },
    query: SerialListInput,
    response: SerialList,
    handler: (ctx, { query }) => serials.listSerials(ctx, query),
  }),
  route({
    method: 'get',
    path: '/serial/{key}',
    tag,
    summary: 'One serial: its data, where it was made (work order, job, batch, phase, operator, time), its components, what it is inside and its history',
    access: { scope: SERIAL_READERS },
    params: KeyParams,
    response: SerialDetail,
    handler: (ctx, { params }) => serials.getSerial(ctx, params.key),
  }),
  route({
    method: 'get',
    path: '/serial/{key}/genealogy',
    tag,
    summary:
      'Genealogy of a serial, depth-first (depth 0 = the serial): backward = everything it is made of, every level; forward = everything it went into',
    access: { scope: SERIAL_READERS },
    params: KeyParams,
    query: GenealogyInput,
    response: Genealogy,
    handler: (ctx, { params, query }) => serials.getGenealogy(ctx, params.key, query.direction),
  }),
  route({
    method: 'patch',
    path: '/serial/{key}',
    tag,
    summary:
      'Correct a serial: code (only with the serial_code_edit setting; a used code is 409 SERIAL_ALREADY_PRESENT) and/or data; reason required (SERIAL_REASON_REQUIRED), recorded with the old and new values in SERIAL_UPDATED',
    access: { scope: SERIAL_EDITORS },
    params: KeyParams,
    body: SerialPatchInput,
    response: SerialRow,
    handler: (ctx, { params, body }) => serials.editSerial(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/serial-link/{key}',
    tag,
    summary: 'Take a serial out of the serial it is inside (only with the serial_delete setting); reason required, recorded in SERIAL_UPDATED on both serials',
    access: { scope: SERIAL_EDITORS },
    params: KeyParams,
    body: SerialUnlinkInput,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params, body }) => serials.unlinkSerial(ctx, ctx.actor!, params.key, body.reason),
  }),
]
