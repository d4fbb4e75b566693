import * as v from 'valibot'
import {
  MissionAssignInput,
  MissionCreateInput,
  MissionDetail,
  MissionList,
  MissionListQuery,
  MissionPutAwayInput,
  MissionScanInput,
  MissionScanResult,
  MissionToLineInput,
  MovementListCreateInput,
  MovementListDetail,
  MovementLists,
  MovementListsQuery,
  WorkOrderMaterial,
  AssigneeChoice,
  WorkOrderChoice,
  WorkOrderChoicesInput,
} from '../../../src/domains/missions/schemas'
import { MovementRow } from '../../../src/domains/movements/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as lists from '../movement-lists/service'
import { getWorkOrderMaterial } from '../production-stock/service'
import * as missions from './service'
import { MATERIAL_READERS, MISSION_EDITORS, MISSION_READERS } from './trpc'

const tag = 'warehouse missions and lists'
const KeyParams = v.object({ key: Key })
const SCAN_ERRORS =
  '422 MISSION_SCAN_POSITION (unknown position, or nothing to take there: expected_positions), 422 MISSION_SCAN_ITEM (not expected there, or a serial-tracked line wants its serial: expected), 409 MISSION_NOT_OPEN, 409 INSUFFICIENT_STOCK (the stock is no longer there)'

export const missionRoutes = [
  route({
    method: 'get',
    path: '/mission',
    tag,
    summary: 'Missions, newest first, with params: status (open|in_progress|done|cancelled|active), kind (to_line|put_away|manual), assignee_key, work_order_key, page, page_size (max 200)',
    access: { scope: MISSION_READERS },
    query: MissionListQuery,
    response: MissionList,
    handler: (ctx, { query }) => missions.listMissions(ctx, ctx.actor ?? null, query),
  }),
  route({
    method: 'get',
    path: '/mission/work-orders',
    tag,
    summary: 'Work orders for the mission forms: code contains `search` (at least 3 characters, else none), not archived, the first 100 by code',
    access: { scope: MISSION_EDITORS },
    query: WorkOrderChoicesInput,
    response: v.array(WorkOrderChoice),
    handler: (ctx, { query }) => missions.listWorkOrderChoices(ctx, query.search),
  }),
  route({
    method: 'get',
    path: '/mission/assignees',
    tag,
    summary: 'Who a mission can be assigned to: enabled users with the warehouse permission',
    access: { scope: MISSION_READERS },
    response: v.array(AssigneeChoice),
    handler: (ctx) => missions.listAssignees(ctx),
  }),
  route({
    method: 'get',
    path: '/mission/{key}',
    tag,
    summary: 'One mission with its lines, each with its movement as it is now',
    access: { scope: MISSION_READERS },
    params: KeyParams,
    response: MissionDetail,
    handler: (ctx, { params }) => missions.getMission(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/mission',
    tag,
    summary:
      'A mission of lines chosen by hand (each a planned transfer: product, from, to, quantity > 0, serial), optionally for a work order and assigned to a warehouse user. Errors: 422 MISSION_EMPTY, UNKNOWN_POSITION, UNKNOWN_PRODUCT, MISSION_ASSIGNEE_NOT_WAREHOUSE; 400 MOVEMENT_POSITIONS_INVALID',
    access: { scope: MISSION_EDITORS },
    body: MissionCreateInput,
    response: MissionDetail,
    status: 201,
    handler: (ctx, { body }) => missions.createMission(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/mission/to-line',
    tag,
    summary:
      "Bring a work order's components to the line: per component what the work order needs (bom per item / per batch / per job over its jobs) less what its missions already carry there, from where the stock is (largest first, serials one by one) to to_position_key (default: the consumption position). `shortfalls` says what stock could not cover. Errors: 422 MISSION_EMPTY (nothing to bring; shortfalls), 409 WAREHOUSE_POSITION_NOT_SET, 422 UNKNOWN_POSITION",
    access: { scope: MISSION_EDITORS },
    body: MissionToLineInput,
    response: MissionDetail,
    status: 201,
    handler: (ctx, { body }) => missions.createToLineMission(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/mission/put-away',
    tag,
    summary:
      "Put finished goods away: the work order's product (or product_key) from the production position (or from_position_key) to to_position_key, `quantity` pieces (default all there). Errors: 422 MISSION_EMPTY, 409 WAREHOUSE_POSITION_NOT_SET, 422 UNKNOWN_POSITION",
    access: { scope: MISSION_EDITORS },
    body: MissionPutAwayInput,
    response: MissionDetail,
    status: 201,
    handler: (ctx, { body }) => missions.createPutAwayMission(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/mission/{key}/assign',
    tag,
    summary: 'Assign the mission to a warehouse user (null: nobody). Errors: 422 MISSION_ASSIGNEE_NOT_WAREHOUSE, 409 MISSION_NOT_OPEN',
    access: { scope: MISSION_EDITORS },
    params: KeyParams,
    body: MissionAssignInput,
    response: MissionDetail,
    handler: (ctx, { params, body }) => missions.assignMission(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/mission/{key}/cancel',
    tag,
    summary: 'Cancel the mission: its movements still planned are cancelled (lines carried out stay; revert them as movements). Errors: 409 MISSION_NOT_OPEN',
    access: { scope: MISSION_EDITORS },
    params: KeyParams,
    response: MissionDetail,
    handler: (ctx, { params }) => missions.cancelMission(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/mission/{key}/scan',
    tag,
    summary: `Carry out a line by scanning: position_code (where the goods are), then item_code (the product code, or the serial of a serial-tracked line). The line's movement is confirmed (the stock moves); the last line completes the mission. Errors: ${SCAN_ERRORS}`,
    access: { scope: MISSION_EDITORS },
    params: KeyParams,
    body: MissionScanInput,
    response: MissionScanResult,
    handler: (ctx, { params, body }) => missions.scanMission(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/movement-list/movement/{key}/confirm',
    tag,
    summary:
      "Carry out a planned movement of a list: a mission's movement carries out its mission line (line done, mission progress, as a scan); any other movement is confirmed. Errors: 409 MOVEMENT_NOT_PLANNED, 409 MISSION_NOT_OPEN, 409 INSUFFICIENT_STOCK, 404 NOT_FOUND",
    access: { scope: MISSION_EDITORS },
    params: KeyParams,
    response: MovementRow,
    handler: (ctx, { params }) => missions.carryOutMovement(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'get',
    path: '/movement-list',
    tag,
    summary: 'Movement lists, newest first, with params: kind (work_order|day|mission), work_order_key, mission_key, day (YYYY/MM/DD), page, page_size (max 200)',
    access: { scope: MISSION_READERS },
    query: MovementListsQuery,
    response: MovementLists,
    handler: (ctx, { query }) => lists.listMovementLists(ctx, query),
  }),
  route({
    method: 'get',
    path: '/movement-list/{key}',
    tag,
    summary: 'One movement list with its movements (picking order: origin position, product, serial), each as it is now',
    access: { scope: MISSION_READERS },
    params: KeyParams,
    response: MovementListDetail,
    handler: (ctx, { params }) => lists.getMovementList(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/movement-list',
    tag,
    summary:
      'A movement list of the movements still planned: kind work_order (work_order_key: its picking list), day (day: planned to start that day, plant calendar) or mission (mission_key). Errors: 422 MOVEMENT_LIST_EMPTY, 422 NOT_FOUND, 400 INVALID_INPUT (the key the kind needs is missing)',
    access: { scope: MISSION_EDITORS },
    body: MovementListCreateInput,
    response: MovementListDetail,
    status: 201,
    handler: (ctx, { body }) => lists.createMovementList(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/work-order/{key}/material',
    tag,
    summary:
      "A work order's material per component (phase by phase): required (bom over its jobs and batches), consumed (completed batches' consumption movements, less reverts), available at the consumption position and anywhere, planned to the line by its missions",
    access: { scope: MATERIAL_READERS },
    params: KeyParams,
    response: WorkOrderMaterial,
    handler: (ctx, { params }) => getWorkOrderMaterial(ctx, params.key),
  }),
]
