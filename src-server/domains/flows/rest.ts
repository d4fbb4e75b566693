import * as v from 'valibot'
import { DELIVERY_STATUSES, DeliveryPage, DeliveryRow, FLOW_EVENT_TYPES, FlowCreateInput, FlowPatchInput, FlowRow } from '../../../src/domains/flows/schemas'
import { Key, QueryInt } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as flows from './service'

const tag = 'flows'
const KeyParams = v.object({ key: Key })
const SHAPE =
  'Each delivery is a POST of JSON {type, timestamp, data} with the Standard Webhooks headers webhook-id (stable per delivery: drop duplicates by it), webhook-timestamp (seconds) and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret; a whsec_ secret signs with its base64-decoded bytes). A 2xx answer delivers it; anything else is retried with exponential backoff for 24 h, in order per flow.'

export const flowRoutes = [
  route({
    method: 'get',
    path: '/flow',
    tag,
    summary: `The data flows (outbound webhooks) by name, with their delivery counts. ${SHAPE}`,
    access: { scope: 'admin' },
    response: v.array(FlowRow),
    handler: (ctx) => flows.listFlows(ctx),
  }),
  route({
    method: 'get',
    path: '/flow/{key}',
    tag,
    summary: 'One data flow',
    access: { scope: 'admin' },
    params: KeyParams,
    response: FlowRow,
    handler: (ctx, { params }) => flows.getFlow(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/flow',
    tag,
    summary: `Create a data flow: name (unique whatever the case: 409 FLOW_NAME_TAKEN), url (http/https), event_types (any of ${FLOW_EVENT_TYPES.join(', ')}), secret (>= 16 characters; made when omitted), active. ${SHAPE}`,
    access: { scope: 'admin' },
    body: FlowCreateInput,
    response: FlowRow,
    status: 201,
    handler: (ctx, { body }) => flows.createFlow(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/flow/{key}',
    tag,
    summary: 'Change name, url, secret, event_types and/or active (a paused flow keeps its waiting deliveries until it is active again, for up to 24 h)',
    access: { scope: 'admin' },
    params: KeyParams,
    body: FlowPatchInput,
    response: FlowRow,
    handler: (ctx, { params, body }) => flows.patchFlow(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/flow/{key}',
    tag,
    summary: 'Delete a data flow with its delivery log (waiting deliveries are dropped)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params }) => flows.deleteFlow(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'get',
    path: '/flow/{key}/delivery',
    tag,
    summary: 'The delivery log of a flow, newest first: status (pending = waiting for its first try or a retry, delivered, failed = given up after 24 h), attempts, last response code and error. Pages: pass next_before as before.',
    access: { scope: 'admin' },
    params: KeyParams,
    query: v.object({ status: v.optional(v.picklist(DELIVERY_STATUSES)), before: v.optional(QueryInt(1, Number.MAX_SAFE_INTEGER)), limit: v.optional(QueryInt(1, 200)) }),
    response: DeliveryPage,
    handler: (ctx, { params, query }) => flows.listDeliveries(ctx, { ...query, flow_key: params.key }),
  }),
  route({
    method: 'post',
    path: '/flow-delivery/{key}/redeliver',
    tag,
    summary: 'Send a delivered or failed delivery again, same webhook-id and body (409 DELIVERY_PENDING while it is still being retried)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: DeliveryRow,
    handler: (ctx, { params }) => flows.redeliver(ctx, ctx.actor!, params.key),
  }),
]
