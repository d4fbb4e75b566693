import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  AssigneeChoice,
  MissionAssignInput,
  MissionCreateInput,
  MissionDetail,
  MissionList,
  MissionListInput,
  MissionPutAwayInput,
  MissionScanInput,
  MissionScanResult,
  MissionToLineInput,
  MovementListCreateInput,
  MovementListDetail,
  MovementLists,
  MovementListsInput,
  WorkOrderChoice,
  WorkOrderChoicesInput,
  WorkOrderMaterial,
} from '../../../src/domains/missions/schemas'
import { MovementRow } from '../../../src/domains/movements/schemas'
import { PrintRow } from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { languageOf } from '../../api/language'
import { mutation, query, useCases } from '../../api/use-case'
import * as lists from '../movement-lists/service'
import { getWorkOrderMaterial } from '../production-stock/service'
import * as missions from './service'

/**
 * Missions and movement lists are the warehouse's (SPEC 6); production reads them (a work
 * order's missions and picking lists) and may ask for the components of its work orders.
 */
const MISSION_READERS = ['warehouse', 'production'] as const satisfies readonly Scope[]
const MISSION_EDITORS = ['warehouse'] as const satisfies readonly Scope[]
/** The work order's material (Materiale tab): production and warehouse. */
const MATERIAL_READERS = ['production', 'warehouse'] as const satisfies readonly Scope[]
const read = { scope: MISSION_READERS }
const edit = { scope: MISSION_EDITORS }
const ByKey = v.object({ key: Key })
const SCAN_ERRORS =
  '422 MISSION_SCAN_POSITION (unknown position, or nothing to take there: expected_positions), 422 MISSION_SCAN_ITEM (not expected there, or a serial-tracked line wants its serial: expected), 409 MISSION_NOT_OPEN, 409 INSUFFICIENT_STOCK (the stock is no longer there)'

// REST paths are matched in this order: `/mission/work-orders` and `/mission/assignees` come before `/mission/{key}`.
export const missionsApi = useCases('warehouse missions and lists', {
  list: query({
    summary: 'Missions, newest first, with params: status (open|in_progress|done|cancelled|active), kind (to_line|put_away|manual), assignee_key, work_order_key, page, page_size (max 200)',
    access: read,
    input: MissionListInput,
    response: MissionList,
    // `mine` (the caller's own missions) is the warehouse screens' shortcut; scripts filter by assignee_key.
    rest: { method: 'get', path: '/mission', omit: ['mine'] },
    run: (ctx, input) => missions.listMissions(ctx, ctx.actor, input),
  }),
  workOrderChoices: query({
    summary: 'Work orders for the mission forms: code contains `search` (at least 3 characters, else none), not archived, the first 100 by code',
    access: edit,
    input: WorkOrderChoicesInput,
    response: v.array(WorkOrderChoice),
    rest: { method: 'get', path: '/mission/work-orders' },
    run: (ctx, input) => missions.listWorkOrderChoices(ctx, input.search),
  }),
  assignees: query({
    summary: 'Who a mission can be assigned to: enabled users with the warehouse permission',
    access: read,
    response: v.array(AssigneeChoice),
    rest: { method: 'get', path: '/mission/assignees' },
    run: (ctx) => missions.listAssignees(ctx),
  }),
  get: query({
    summary: 'One mission with its lines, each with its movement as it is now',
    access: read,
    input: ByKey,
    response: MissionDetail,
    rest: { method: 'get', path: '/mission/{key}' },
    run: (ctx, input) => missions.getMission(ctx, input.key),
  }),
  create: mutation({
    summary:
      'A mission of lines chosen by hand (each a planned transfer: product, from, to, quantity > 0, serial), optionally for a work order and assigned to a warehouse user. Errors: 422 MISSION_EMPTY, UNKNOWN_POSITION, UNKNOWN_PRODUCT, MISSION_ASSIGNEE_NOT_WAREHOUSE; 400 MOVEMENT_POSITIONS_INVALID',
    access: edit,
    input: MissionCreateInput,
    response: MissionDetail,
    rest: { method: 'post', path: '/mission', status: 201 },
    run: (ctx, input) => missions.createMission(ctx, ctx.actor, input),
  }),
  toLine: mutation({
    summary:
      "Bring a work order's components to the line: per component what the work order needs (bom per item / per batch / per job over its jobs) less what its missions already carry there, from where the stock is (largest first, serials one by one) to to_position_key (default: the consumption position). `shortfalls` says what stock could not cover. Errors: 422 MISSION_EMPTY (nothing to bring; shortfalls), 409 WAREHOUSE_POSITION_NOT_SET, 422 UNKNOWN_POSITION",
    access: edit,
    input: MissionToLineInput,
    response: MissionDetail,
    rest: { method: 'post', path: '/mission/to-line', status: 201 },
    run: (ctx, input) => missions.createToLineMission(ctx, ctx.actor, input),
  }),
  putAway: mutation({
    summary:
      "Put finished goods away: the work order's product (or product_key) from the production position (or from_position_key) to to_position_key, `quantity` pieces (default all there). Errors: 422 MISSION_EMPTY, 409 WAREHOUSE_POSITION_NOT_SET, 422 UNKNOWN_POSITION",
    access: edit,
    input: MissionPutAwayInput,
    response: MissionDetail,
    rest: { method: 'post', path: '/mission/put-away', status: 201 },
    run: (ctx, input) => missions.createPutAwayMission(ctx, ctx.actor, input),
  }),
  assign: mutation({
    summary: 'Assign the mission to a warehouse user (null: nobody). Errors: 422 MISSION_ASSIGNEE_NOT_WAREHOUSE, 409 MISSION_NOT_OPEN',
    access: edit,
    input: v.object({ key: Key, ...MissionAssignInput.entries }),
    response: MissionDetail,
    rest: { method: 'post', path: '/mission/{key}/assign' },
    run: (ctx, { key, ...assign }) => missions.assignMission(ctx, ctx.actor, key, assign),
  }),
  cancel: mutation({
    summary: 'Cancel the mission: its movements still planned are cancelled (lines carried out stay; revert them as movements). Errors: 409 MISSION_NOT_OPEN',
    access: edit,
    input: ByKey,
    response: MissionDetail,
    rest: { method: 'post', path: '/mission/{key}/cancel' },
    run: (ctx, input) => missions.cancelMission(ctx, ctx.actor, input.key),
  }),
  scan: mutation({
    summary: `Carry out a line by scanning: position_code (where the goods are), then item_code (the product code, or the serial of a serial-tracked line). The line's movement is confirmed (the stock moves); the last line completes the mission. Errors: ${SCAN_ERRORS}`,
    access: edit,
    input: v.object({ key: Key, ...MissionScanInput.entries }),
    response: MissionScanResult,
    rest: { method: 'post', path: '/mission/{key}/scan' },
    run: (ctx, { key, ...scan }) => missions.scanMission(ctx, ctx.actor, key, scan),
  }),
  confirmMovement: mutation({
    summary:
      "Carry out a planned movement of a list: a mission's movement carries out its mission line (line done, mission progress, as a scan); any other movement is confirmed. Errors: 409 MOVEMENT_NOT_PLANNED, 409 MISSION_NOT_OPEN, 409 INSUFFICIENT_STOCK, 404 NOT_FOUND",
    access: edit,
    input: ByKey,
    response: MovementRow,
    rest: { method: 'post', path: '/movement-list/movement/{key}/confirm' },
    run: (ctx, input) => missions.carryOutMovement(ctx, ctx.actor, input.key),
  }),
  lists: query({
    summary: 'Movement lists, newest first, with params: kind (work_order|day|mission), work_order_key, mission_key, day (YYYY/MM/DD), page, page_size (max 200)',
    access: read,
    input: MovementListsInput,
    response: MovementLists,
    rest: { method: 'get', path: '/movement-list' },
    run: (ctx, input) => lists.listMovementLists(ctx, input),
  }),
  getList: query({
    summary: 'One movement list with its movements (picking order: origin position, product, serial), each as it is now',
    access: read,
    input: ByKey,
    response: MovementListDetail,
    rest: { method: 'get', path: '/movement-list/{key}' },
    run: (ctx, input) => lists.getMovementList(ctx, input.key),
  }),
  createList: mutation({
    summary:
      'A movement list of the movements still planned: kind work_order (work_order_key: its picking list), day (day: planned to start that day, plant calendar) or mission (mission_key). Errors: 422 MOVEMENT_LIST_EMPTY, 422 NOT_FOUND, 400 INVALID_INPUT (the key the kind needs is missing)',
    access: edit,
    input: MovementListCreateInput,
    response: MovementListDetail,
    rest: { method: 'post', path: '/movement-list', status: 201 },
    run: (ctx, input) => lists.createMovementList(ctx, ctx.actor, input),
  }),
  printList: mutation({
    summary:
      'The movement list as an A4 PDF (every column wraps inside the page), in Italian or English (lang; default the user language), kept in the print log (pdf_url) and sent to printer_key when given. Errors: 404 NOT_FOUND, 404 UNKNOWN_PRINTER, 422 PRINTER_UNREACHABLE / PRINTER_REFUSED (the PDF is kept)',
    access: read,
    input: v.object({ key: Key, printer_key: v.optional(v.nullable(Key)), lang: v.optional(v.picklist(['it', 'en'])) }),
    response: PrintRow,
    rest: { method: 'post', path: '/movement-list/{key}/print', status: 201 },
    run: (ctx, input) => lists.printMovementList(ctx, ctx.actor, input.key, { printerKey: input.printer_key, lang: languageOf(ctx, input.lang) }),
  }),
  workOrderMaterial: query({
    summary:
      "A work order's material per component (phase by phase): required (bom over its jobs and batches), consumed (completed batches' consumption movements, less reverts), available at the consumption position and anywhere, planned to the line by its missions",
    access: { scope: MATERIAL_READERS },
    input: ByKey,
    response: WorkOrderMaterial,
    rest: { method: 'get', path: '/work-order/{key}/material' },
    run: (ctx, input) => getWorkOrderMaterial(ctx, input.key),
  }),
})
