import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  MissionAssignInput,
  MissionCreateInput,
  MissionListInput,
  MissionPutAwayInput,
  MissionScanInput,
  MissionToLineInput,
  MovementListCreateInput,
  MovementListsInput,
  WorkOrderChoicesInput,
} from '../../../src/domains/missions/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router } from '../../trpc/init'
import * as lists from '../movement-lists/service'
import { getWorkOrderMaterial } from '../production-stock/service'
import * as missions from './service'

/**
 * Missions and movement lists are the warehouse's (SPEC 6); production reads them (a work
 * order's missions and picking lists) and may ask for the components of its work orders.
 */
export const MISSION_READERS = ['warehouse', 'production'] as const satisfies readonly Scope[]
export const MISSION_EDITORS = ['warehouse'] as const satisfies readonly Scope[]
/** The work order's material (Materiale tab): production and warehouse. */
export const MATERIAL_READERS = ['production', 'warehouse'] as const satisfies readonly Scope[]

const KeyInput = v.object({ key: Key })

export const missionsRouter = router({
  list: procedure({ scope: MISSION_READERS })
    .input(MissionListInput)
    .query(({ ctx, input }) => missions.listMissions(ctx, ctx.actor, input)),
  get: procedure({ scope: MISSION_READERS })
    .input(KeyInput)
    .query(({ ctx, input }) => missions.getMission(ctx, input.key)),
  create: procedure({ scope: MISSION_EDITORS })
    .input(MissionCreateInput)
    .mutation(({ ctx, input }) => missions.createMission(ctx, ctx.actor, input)),
  toLine: procedure({ scope: MISSION_EDITORS })
    .input(MissionToLineInput)
    .mutation(({ ctx, input }) => missions.createToLineMission(ctx, ctx.actor, input)),
  putAway: procedure({ scope: MISSION_EDITORS })
    .input(MissionPutAwayInput)
    .mutation(({ ctx, input }) => missions.createPutAwayMission(ctx, ctx.actor, input)),
  assign: procedure({ scope: MISSION_EDITORS })
    .input(v.object({ key: Key, ...MissionAssignInput.entries }))
    .mutation(({ ctx, input }) => missions.assignMission(ctx, ctx.actor, input.key, { assignee_key: input.assignee_key })),
  cancel: procedure({ scope: MISSION_EDITORS })
    .input(KeyInput)
    .mutation(({ ctx, input }) => missions.cancelMission(ctx, ctx.actor, input.key)),
  scan: procedure({ scope: MISSION_EDITORS })
    .input(v.object({ key: Key, ...MissionScanInput.entries }))
    .mutation(({ ctx, input }) => missions.scanMission(ctx, ctx.actor, input.key, { position_code: input.position_code, item_code: input.item_code })),
  confirmMovement: procedure({ scope: MISSION_EDITORS })
    .input(KeyInput)
    .mutation(({ ctx, input }) => missions.carryOutMovement(ctx, ctx.actor, input.key)),
  lists: procedure({ scope: MISSION_READERS })
    .input(MovementListsInput)
    .query(({ ctx, input }) => lists.listMovementLists(ctx, input)),
  getList: procedure({ scope: MISSION_READERS })
    .input(KeyInput)
    .query(({ ctx, input }) => lists.getMovementList(ctx, input.key)),
  createList: procedure({ scope: MISSION_EDITORS })
    .input(MovementListCreateInput)
    .mutation(({ ctx, input }) => lists.createMovementList(ctx, ctx.actor, input)),
  workOrderChoices: procedure({ scope: MISSION_EDITORS })
    .input(WorkOrderChoicesInput)
    .query(({ ctx, input }) => missions.listWorkOrderChoices(ctx, input.search)),
  assignees: procedure({ scope: MISSION_READERS }).query(({ ctx }) => missions.listAssignees(ctx)),
  workOrderMaterial: procedure({ scope: MATERIAL_READERS })
    .input(KeyInput)
    .query(({ ctx, input }) => getWorkOrderMaterial(ctx, input.key)),
})
