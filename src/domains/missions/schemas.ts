import * as v from 'valibot'
import { DayInput } from '../../dates'
import { StorableText } from '../../valibot-helpers'
import { MovementRow, Quantity, Serial } from '../movements/schemas'

/**
 * Missions (SPEC 2 warehouse tab "missions"; issue 14): a set of movements for one purpose,
 * assigned to a warehouse user and carried out line by line with a scanner.
 * - `to_line`: a work order's components brought to the line (generated from its bom and
 *   quantities, from where the stock is to the consumption position);
 * - `put_away`: finished goods taken from the production position to where they are kept;
 * - `manual`: lines chosen by hand.
 * Each line is one planned transfer of the warehouse; carrying a line out (position scanned,
 * then the product code or the serial) confirms that movement, which moves the stock.
 * Status: open -> in_progress (first line carried out) -> done (last line); open or in progress
 * -> cancelled (its movements still planned are cancelled).
 */
export const MISSION_KINDS = ['to_line', 'put_away', 'manual'] as const
export type MissionKind = (typeof MISSION_KINDS)[number]
export const MISSION_STATUSES = ['open', 'in_progress', 'done', 'cancelled'] as const
export type MissionStatus = (typeof MISSION_STATUSES)[number]
/** The list filter "active" is open or in progress. */
export const MISSION_STATUS_FILTERS = [...MISSION_STATUSES, 'active'] as const
export type MissionStatusFilter = (typeof MISSION_STATUS_FILTERS)[number]

export const MISSION_NOTES_MAX = 2000
export const MISSION_LINES_MAX = 500
export const MISSION_PAGE_SIZE_MAX = 200
/** What a scanner sends: a position code, a product code or a serial. */
export const SCAN_MAX = 200

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a key (uuid)`))
const Notes = v.pipe(v.string(), StorableText, v.maxLength(MISSION_NOTES_MAX, `notes may have at most ${MISSION_NOTES_MAX} characters`))
const ScanText = (what: string) =>
  v.pipe(v.string(`${what} must be text`), StorableText, v.maxLength(SCAN_MAX, `${what} may have at most ${SCAN_MAX} characters`))

/** A mission's code as people read and scan it. */
export const missionCode = (number: number) => `MIS-${number}`

export const MissionLineInput = v.object({
  product_key: Uuid('product_key'),
  from_position_key: Uuid('from_position_key'),
  to_position_key: Uuid('to_position_key'),
  quantity: Quantity,
  serial: v.optional(v.nullable(Serial)),
})
export type MissionLineInput = v.InferOutput<typeof MissionLineInput>

/** `POST mission`: lines chosen by hand. */
export const MissionCreateInput = v.object({
  kind: v.optional(v.picklist(MISSION_KINDS, `kind must be one of ${MISSION_KINDS.join(', ')}`)),
  notes: v.optional(Notes),
  work_order_key: v.optional(v.nullable(Uuid('work_order_key'))),
  assignee_key: v.optional(v.nullable(Uuid('assignee_key'))),
  lines: v.pipe(v.array(MissionLineInput), v.maxLength(MISSION_LINES_MAX, `at most ${MISSION_LINES_MAX} lines`)),
})
export type MissionCreateInput = v.InferOutput<typeof MissionCreateInput>

/**
 * `POST mission/to-line`: bring a work order's components to the line: per bom line, what the
 * work order needs less what its missions already carry (not cancelled), taken from where the
 * stock is (largest first), to `to_position_key` (default: the consumption position).
 */
export const MissionToLineInput = v.object({
  work_order_key: Uuid('work_order_key'),
  to_position_key: v.optional(v.nullable(Uuid('to_position_key'))),
  assignee_key: v.optional(v.nullable(Uuid('assignee_key'))),
  notes: v.optional(Notes),
})
export type MissionToLineInput = v.InferOutput<typeof MissionToLineInput>

/**
 * `POST mission/put-away`: finished goods of the work order's product (or `product_key`) from
 * the production position (or `from_position_key`) to `to_position_key`; `quantity` defaults to
 * everything there (every serial).
 */
export const MissionPutAwayInput = v.object({
  work_order_key: v.optional(v.nullable(Uuid('work_order_key'))),
  product_key: v.optional(v.nullable(Uuid('product_key'))),
  from_position_key: v.optional(v.nullable(Uuid('from_position_key'))),
  to_position_key: Uuid('to_position_key'),
  quantity: v.optional(Quantity),
  assignee_key: v.optional(v.nullable(Uuid('assignee_key'))),
  notes: v.optional(Notes),
})
export type MissionPutAwayInput = v.InferOutput<typeof MissionPutAwayInput>

/** `POST mission/{key}/scan`: the position scanned, then the product code or serial scanned there. */
export const MissionScanInput = v.object({ position_code: ScanText('position_code'), item_code: ScanText('item_code') })
export type MissionScanInput = v.InferOutput<typeof MissionScanInput>

export const MissionAssignInput = v.object({ assignee_key: v.nullable(Uuid('assignee_key')) })
export type MissionAssignInput = v.InferOutput<typeof MissionAssignInput>

export const MissionListInput = v.object({
  status: v.optional(v.picklist(MISSION_STATUS_FILTERS, `status must be one of ${MISSION_STATUS_FILTERS.join(', ')}`)),
  kind: v.optional(v.picklist(MISSION_KINDS, `kind must be one of ${MISSION_KINDS.join(', ')}`)),
  assignee_key: v.optional(Uuid('assignee_key')),
  work_order_key: v.optional(Uuid('work_order_key')),
  /** Only the missions assigned to the caller. */
  mine: v.optional(v.boolean()),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MISSION_PAGE_SIZE_MAX))),
})
export type MissionListInput = v.InferOutput<typeof MissionListInput>

export const MissionLineRow = v.object({
  _key: v.string(),
  position: v.number(),
  done_at: v.nullable(v.number()),
  done_by_name: v.nullable(v.string()),
  movement: MovementRow,
})
export type MissionLineRow = v.InferOutput<typeof MissionLineRow>

export const MissionRow = v.object({
  _key: v.string(),
  number: v.number(),
  code: v.string(),
  kind: v.picklist(MISSION_KINDS),
  status: v.picklist(MISSION_STATUSES),
  notes: v.string(),
  work_order_key: v.nullable(v.string()),
  work_order_code: v.nullable(v.string()),
  assignee_key: v.nullable(v.string()),
  assignee_name: v.nullable(v.string()),
  created_by_name: v.nullable(v.string()),
  created_at: v.number(),
  started_at: v.nullable(v.number()),
  ended_at: v.nullable(v.number()),
  lines_total: v.number(),
  lines_done: v.number(),
})
export type MissionRow = v.InferOutput<typeof MissionRow>
export const MissionList = v.object({ rows: v.array(MissionRow), total: v.number() })
export type MissionList = v.InferOutput<typeof MissionList>

/** A component the stock could not cover when the mission was generated. */
export const MissionShortfall = v.object({
  product_key: v.string(),
  product_code: v.string(),
  needed: v.number(),
  planned: v.number(),
})
export type MissionShortfall = v.InferOutput<typeof MissionShortfall>

export const MissionDetail = v.object({
  ...MissionRow.entries,
  lines: v.array(MissionLineRow),
  /** Only in the answer of a generation: what the stock could not cover. */
  shortfalls: v.optional(v.array(MissionShortfall)),
})
export type MissionDetail = v.InferOutput<typeof MissionDetail>

export const MissionScanResult = v.object({ line_key: v.string(), mission: MissionDetail })
export type MissionScanResult = v.InferOutput<typeof MissionScanResult>

// ---------------------------------------------------------------------------------------------
// Movement lists (SPEC 2 warehouse tab "lists", SPEC 7 GET movement-list)

/**
 * A movement list groups movements for printing and carrying out: the planned movements of a
 * work order (a picking list), of a day (planned to start that day, plant calendar), or of a
 * mission. The lines are fixed when the list is made; each shows its movement as it is now.
 */
export const MOVEMENT_LIST_KINDS = ['work_order', 'day', 'mission'] as const
export type MovementListKind = (typeof MOVEMENT_LIST_KINDS)[number]
export const MOVEMENT_LIST_TITLE_MAX = 200
export const movementListCode = (number: number) => `LST-${number}`

export const MovementListCreateInput = v.object({
  kind: v.picklist(MOVEMENT_LIST_KINDS, `kind must be one of ${MOVEMENT_LIST_KINDS.join(', ')}`),
  work_order_key: v.optional(Uuid('work_order_key')),
  mission_key: v.optional(Uuid('mission_key')),
  day: v.optional(DayInput),
  title: v.optional(v.pipe(v.string(), StorableText, v.maxLength(MOVEMENT_LIST_TITLE_MAX))),
})
export type MovementListCreateInput = v.InferOutput<typeof MovementListCreateInput>

export const MovementListsInput = v.object({
  kind: v.optional(v.picklist(MOVEMENT_LIST_KINDS, `kind must be one of ${MOVEMENT_LIST_KINDS.join(', ')}`)),
  work_order_key: v.optional(Uuid('work_order_key')),
  mission_key: v.optional(Uuid('mission_key')),
  day: v.optional(DayInput),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MISSION_PAGE_SIZE_MAX))),
})
export type MovementListsInput = v.InferOutput<typeof MovementListsInput>

export const MovementListRow = v.object({
  _key: v.string(),
  number: v.number(),
  code: v.string(),
  kind: v.picklist(MOVEMENT_LIST_KINDS),
  title: v.string(),
  work_order_key: v.nullable(v.string()),
  work_order_code: v.nullable(v.string()),
  mission_key: v.nullable(v.string()),
  day: v.nullable(v.string()),
  created_by_name: v.nullable(v.string()),
  created_at: v.number(),
  lines_total: v.number(),
})
export type MovementListRow = v.InferOutput<typeof MovementListRow>
export const MovementLists = v.object({ rows: v.array(MovementListRow), total: v.number() })
export type MovementLists = v.InferOutput<typeof MovementLists>
export const MovementListDetail = v.object({ ...MovementListRow.entries, movements: v.array(MovementRow) })
export type MovementListDetail = v.InferOutput<typeof MovementListDetail>

// ---------------------------------------------------------------------------------------------
// Production and stock: the work order's material (Materiale tab)

export const WorkOrderMaterialLine = v.object({
  phase_key: v.string(),
  phase_name: v.string(),
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  quantity: v.number(),
  quantity_per: v.picklist(['item', 'job', 'batch']),
  /** What the work order needs for its planned quantity (its jobs and their batches). */
  required: v.number(),
  /** Consumed by completed batches (confirmed consumption movements, less reverts). */
  consumed: v.number(),
  /** Stock at the consumption position (null without one). */
  available_at_line: v.nullable(v.number()),
  /** Stock anywhere. */
  available: v.number(),
  /** On its way: in this work order's missions, not yet carried out. */
  planned_to_line: v.number(),
})
export type WorkOrderMaterialLine = v.InferOutput<typeof WorkOrderMaterialLine>
export const WorkOrderMaterial = v.object({
  work_order_key: v.string(),
  inventory_management: v.boolean(),
  consumption_position_key: v.nullable(v.string()),
  consumption_position_code: v.nullable(v.string()),
  production_position_code: v.nullable(v.string()),
  /** Finished pieces this work order loaded into the production position. */
  produced: v.number(),
  lines: v.array(WorkOrderMaterialLine),
})
export type WorkOrderMaterial = v.InferOutput<typeof WorkOrderMaterial>

// ---------------------------------------------------------------------------------------------
// Choices for the mission forms (warehouse users read neither the work order list nor the users)

/** Work orders by code (at least 3 characters, SPEC 5), the first 100, not archived. */
export const WorkOrderChoicesInput = v.object({ search: v.pipe(v.string(), StorableText, v.maxLength(100)) })
export const WorkOrderChoice = v.object({
  _key: v.string(),
  code: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  planned_qt: v.number(),
  status: v.string(),
})
export type WorkOrderChoice = v.InferOutput<typeof WorkOrderChoice>
/** Enabled users with the warehouse permission: who a mission can be assigned to. */
export const AssigneeChoice = v.object({ _key: v.string(), name: v.string() })
export type AssigneeChoice = v.InferOutput<typeof AssigneeChoice>
