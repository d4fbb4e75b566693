import * as v from 'valibot'
import { Key } from '../../valibot-helpers'

/**
 * Data flows (SPEC 2, issue 17): an admin sends chosen events to another system's URL as signed
 * webhooks (Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`). The event types a flow may choose:
 */
export const FLOW_EVENT_TYPES = [
  'JOB_STARTED',
  'JOB_PAUSED',
  'JOB_PAUSE_FORCED',
  'JOB_RESUMED',
  'JOB_CLOSED',
  'BATCH_COMPLETED',
  'WORK_ORDER_CREATED',
  'WORK_ORDER_CLOSED',
  'ISSUE_OPENED',
  'ISSUE_MADE_CRITICAL',
  'ISSUE_ESCALATED',
  'ISSUE_CLOSED',
  'SERIAL_CREATED',
  'SERIAL_FINALIZED',
  'SERIAL_LINKED',
  'MOVEMENT_CONFIRMED',
  'MOVEMENT_REVERTED',
  'MISSION_COMPLETED',
  'REVISION_RELEASED',
  'WORK_ORDER_REVISION_CHANGED',
  'CHAIN_ANCHORED',
] as const
export type FlowEventType = (typeof FLOW_EVENT_TYPES)[number]

export const FLOW_NAME_MAX = 200
export const FLOW_URL_MAX = 2000
/** Secrets are at least 16 characters (a generated one is `whsec_` + 32 random bytes in base64). */
export const FLOW_SECRET_MIN = 16

const FlowName = v.pipe(v.string(), v.trim(), v.minLength(1, 'name is required'), v.maxLength(FLOW_NAME_MAX, `a flow name may have at most ${FLOW_NAME_MAX} characters`))
const FlowUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(FLOW_URL_MAX, `url may have at most ${FLOW_URL_MAX} characters`),
  v.regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'url must be an http:// or https:// address'),
)
const FlowSecret = v.pipe(v.string(), v.minLength(FLOW_SECRET_MIN, `secret must have at least ${FLOW_SECRET_MIN} characters`), v.maxLength(200))
const FlowEventTypes = v.pipe(
  v.array(v.picklist(FLOW_EVENT_TYPES, `event_types: each must be one of ${FLOW_EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'choose at least one event type'),
  v.maxLength(FLOW_EVENT_TYPES.length),
)

/** `POST flow`: without a secret the server makes one (shown in the answer and on the flow). */
export const FlowCreateInput = v.object({
  name: FlowName,
  url: FlowUrl,
  secret: v.optional(FlowSecret),
  event_types: FlowEventTypes,
  active: v.optional(v.boolean()),
})
export type FlowCreateInput = v.InferOutput<typeof FlowCreateInput>

export const FlowPatchInput = v.object({
  name: v.optional(FlowName),
  url: v.optional(FlowUrl),
  secret: v.optional(FlowSecret),
  event_types: v.optional(FlowEventTypes),
  active: v.optional(v.boolean()),
})
export type FlowPatchInput = v.InferOutput<typeof FlowPatchInput>

export const FlowRow = v.object({
  _key: v.string(),
  name: v.string(),
  url: v.string(),
  secret: v.string(),
  event_types: v.array(v.string()),
  active: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
  /** Deliveries waiting (first try or a retry), delivered, given up after 24 h. */
  pending: v.number(),
  delivered: v.number(),
  failed: v.number(),
})
export type FlowRow = v.InferOutput<typeof FlowRow>

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const DeliveryRow = v.object({
  /** The stable webhook-id (the same on every retry and redelivery). */
  _key: v.string(),
  flow_key: v.string(),
  seq: v.number(),
  event_id: v.nullable(v.number()),
  event_type: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  last_status_code: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  last_attempt_at: v.nullable(v.number()),
  delivered_at: v.nullable(v.number()),
  created_at: v.number(),
  /** The exact JSON body sent. */
  body: v.string(),
})
export type DeliveryRow = v.InferOutput<typeof DeliveryRow>

export const DeliveryListInput = v.object({
  flow_key: Key,
  status: v.optional(v.picklist(DELIVERY_STATUSES)),
  /** Deliveries with seq below this (the next page). */
  before: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** The same as `before`, for tRPC infinite queries. */
  cursor: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200))),
})
export type DeliveryListInput = v.InferOutput<typeof DeliveryListInput>

export const DeliveryPage = v.object({ rows: v.array(DeliveryRow), next_before: v.nullable(v.number()) })
export type DeliveryPage = v.InferOutput<typeof DeliveryPage>
