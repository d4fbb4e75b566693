import * as v from 'valibot'
import { SERIAL_STATES } from './schemas'

/**
 * A work order's Tracciabilità tab (SPEC 2, issue 13): the serials it produced and the component
 * serials it consumed (linked into a serial it produced, or linked in one of its batches).
 * Each list answers its first WORK_ORDER_SERIALS_LIMIT rows and the total.
 */
export const WORK_ORDER_SERIALS_LIMIT = 500

export const WorkOrderProducedSerial = v.object({
  serial_key: v.string(),
  code: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  phase_name: v.nullable(v.string()),
  batch_number: v.nullable(v.number()),
  operator_name: v.nullable(v.string()),
  state: v.picklist(SERIAL_STATES),
  created_at: v.number(),
  /** How many component serials are inside it. */
  components: v.number(),
})
export type WorkOrderProducedSerial = v.InferOutput<typeof WorkOrderProducedSerial>

export const WorkOrderConsumedSerial = v.object({
  link_key: v.string(),
  serial_key: v.string(),
  code: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  /** The serial of this work order it went into. */
  parent_key: v.string(),
  parent_code: v.string(),
  phase_name: v.nullable(v.string()),
  batch_number: v.nullable(v.number()),
  state: v.picklist(SERIAL_STATES),
  created_at: v.number(),
})
export type WorkOrderConsumedSerial = v.InferOutput<typeof WorkOrderConsumedSerial>

export const WorkOrderSerials = v.object({
  work_order_key: v.string(),
  work_order_code: v.string(),
  produced: v.array(WorkOrderProducedSerial),
  produced_total: v.number(),
  consumed: v.array(WorkOrderConsumedSerial),
  consumed_total: v.number(),
})
export type WorkOrderSerials = v.InferOutput<typeof WorkOrderSerials>
