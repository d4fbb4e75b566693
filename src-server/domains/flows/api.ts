import * as v from 'valibot'
import { DeliveryListInput, DeliveryPage, DeliveryRow, FLOW_EVENT_TYPES, FlowCreateInput, FlowPatchInput, FlowRow } from '../../../src/domains/flows/schemas'
import { Key } from '../../../src/valibot-helpers'
import { libraryCrud } from '../../api/library-crud'
import { mutation, query, useCases } from '../../api/use-case'
import * as flows from './service'

const admin = { scope: 'admin' } as const
const crud = libraryCrud({ path: '/flow', read: admin, write: admin })
const SHAPE =
  'Each delivery is a POST of JSON {type, timestamp, data} with the Standard Webhooks headers webhook-id (stable per delivery: drop duplicates by it), webhook-timestamp (seconds) and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret; a whsec_ secret signs with its base64-decoded bytes). A 2xx answer delivers it; anything else is retried with exponential backoff for 24 h, in order per flow.'

export const flowsApi = useCases('flows', {
  list: crud.list({ summary: `The data flows (outbound webhooks) by name, with their delivery counts. ${SHAPE}`, response: v.array(FlowRow), run: flows.listFlows }),
  get: crud.get({ summary: 'One data flow', response: FlowRow, run: flows.getFlow }),
  create: crud.create({
    summary: `Create a data flow: name (unique whatever the case: 409 FLOW_NAME_TAKEN), url (http/https), event_types (any of ${FLOW_EVENT_TYPES.join(', ')}), secret (>= 16 characters; made when omitted), active. ${SHAPE}`,
    input: FlowCreateInput,
    response: FlowRow,
    run: flows.createFlow,
  }),
  patch: crud.patch({
    summary: 'Change name, url, secret, event_types and/or active (a paused flow keeps its waiting deliveries until it is active again, for up to 24 h)',
    patch: FlowPatchInput,
    response: FlowRow,
    run: flows.patchFlow,
  }),
  delete: crud.delete({ summary: 'Delete a data flow with its delivery log (waiting deliveries are dropped)', run: flows.deleteFlow }),
  deliveries: query({
    summary:
      'The delivery log of a flow, newest first: status (pending = waiting for its first try or a retry, delivered, failed = given up after 24 h), attempts, last response code and error. Pages: pass next_before as before.',
    access: admin,
    // `cursor` and `direction` are what tRPC's infinite queries send (the same as `before`; the log only pages back in time).
    input: v.object({ ...DeliveryListInput.entries, direction: v.optional(v.picklist(['forward', 'backward'])) }),
    response: DeliveryPage,
    rest: { method: 'get', path: '/flow/{key}/delivery', params: { key: 'flow_key' }, omit: ['cursor', 'direction'] },
    run: (ctx, { direction: _direction, ...filter }) => flows.listDeliveries(ctx, filter),
  }),
  redeliver: mutation({
    summary: 'Send a delivered or failed delivery again, same webhook-id and body (409 DELIVERY_PENDING while it is still being retried)',
    access: admin,
    input: v.object({ key: Key }),
    response: DeliveryRow,
    rest: { method: 'post', path: '/flow-delivery/{key}/redeliver' },
    run: (ctx, input) => flows.redeliver(ctx, ctx.actor, input.key),
  }),
})
