import { hasScope } from '../../../src/auth/scopes'
import { round4, phaseNeed } from '../../../src/domains/missions/material'
import {
  type MissionAssignInput,
  type MissionCreateInput,
  type MissionDetail,
  type MissionKind,
  type MissionLineInput,
  type MissionList,
  type MissionListInput,
  type MissionPutAwayInput,
  type MissionRow,
  type MissionScanInput,
  type MissionScanResult,
  type MissionShortfall,
  type MissionToLineInput,
  MISSION_LINES_MAX,
  missionCode,
  type AssigneeChoice,
  type WorkOrderChoice,
} from '../../../src/domains/missions/schemas'
import type { MovementRow } from '../../../src/domains/movements/schemas'
import type { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { drawNumber } from '../../db/numbering'
import { conflict, notFound, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { cancelMovementInTrx, confirmMovement, confirmMovementInTrx, createMovementInTrx, type MovementSettled, onMovementSettled } from '../movements/service'
import { readWarehouseSettings } from '../movements/settings'
import { stockByPosition } from '../movements/stock'
import { findPosition, positionByCode } from '../positions/service'
import { allMovements } from '../production-stock/service'
import { movementsByKeys, workOrderNeeds } from '../production-stock/queries'
import { assigneeCandidates, lockMission, selectMissionLines, selectMissions, userForAssignment, workOrderChoices, workOrderExists } from './queries'

/**
 * Missions (src/domains/missions/schemas.ts): each line is a planned transfer of the warehouse
 * service (origin 'mission' + the mission's key, with the work order when there is one);
 * carrying a line out confirms that movement in the same transaction as the line, so the stock
 * and the mission never disagree. Events: MISSION_CREATED, MISSION_ASSIGNED, MISSION_LINE_DONE,
 * MISSION_COMPLETED, MISSION_CANCELLED (subject 'mission').
 */

type Svc = Pick<Services, 'db' | 'clock'>
const ORIGIN = 'mission'
const missionNotFound = () => notFound('NOT_FOUND', 'mission not found')
const notOpen = (code: string, status: string) => conflict('MISSION_NOT_OPEN', `mission ${code} is ${status}: nothing left to carry out`, { status })

function missionEvent(missionId: string, event_type: string, data: Record<string, unknown>) {
  return { event_type, subject_type: 'mission', subject_key: missionId, data }
}

async function checkedAssignee(db: Db, key: string | null | undefined): Promise<string | null> {
  if (!key) return null
  const user = await userForAssignment(db, key)
  if (!user || !user.enabled || user.archived_at !== null || !hasScope(user.scope, 'warehouse')) {
    throw unprocessable('MISSION_ASSIGNEE_NOT_WAREHOUSE', 'a mission can be assigned only to an enabled user with the warehouse permission', {
      assignee_key: key,
    })
  }
  return user.id
}

/** Inserts the mission and one planned transfer per line, in the caller's transaction. */
async function insertMission(
  trx: Db,
  actor: Actor,
  mission: { kind: MissionKind; notes?: string; work_order_key?: string | null; assignee_key?: string | null },
  lines: readonly MissionLineInput[],
  now: Date,
): Promise<string> {
  if (lines.length === 0) throw unprocessable('MISSION_EMPTY', 'a mission needs at least one line')
  if (lines.length > MISSION_LINES_MAX) throw unprocessable('MISSION_EMPTY', `a mission has at most ${MISSION_LINES_MAX} lines`)
  const workOrder = mission.work_order_key ? await workOrderExists(trx, mission.work_order_key) : undefined
  if (mission.work_order_key && !workOrder) throw unprocessable('NOT_FOUND', 'work order not found')
  const assignee = await checkedAssignee(trx, mission.assignee_key)
  const { id, number } = await trx
    .insertInto('missions')
    .values({
      number: await drawNumber(trx, 'mission'),
      kind: mission.kind,
      notes: mission.notes?.trim() ?? '',
      work_order_id: workOrder?.id ?? null,
      assignee_id: assignee,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'number'])
    .executeTakeFirstOrThrow()
  const rows = []
  for (const [position, line] of lines.entries()) {
    const movement = await createMovementInTrx(
      trx,
      actor,
      {
        type: 'transfer',
        product_key: line.product_key,
        from_position_key: line.from_position_key,
        to_position_key: line.to_position_key,
        quantity: line.quantity,
        serial: line.serial ?? null,
        confirm: false,
        work_order_key: workOrder?.id ?? null,
        origin_type: ORIGIN,
        origin_key: id,
      },
      now,
    )
    rows.push({ mission_id: id, position, movement_id: movement._key })
  }
  await trx.insertInto('mission_lines').values(rows).execute()
  await appendEvent(
    trx,
    actor,
    missionEvent(id, 'MISSION_CREATED', {
      code: missionCode(number),
      kind: mission.kind,
      work_order_key: workOrder?.id ?? null,
      assignee_key: assignee,
      lines: lines.length,
    }),
    now,
  )
  return id
}

/** `POST mission`: lines chosen by hand. */
export async function createMission(svc: Svc, actor: Actor, input: MissionCreateInput): Promise<MissionDetail> {
  const now = svc.clock.now()
  const id = await svc.db.transaction().execute((trx) => insertMission(trx, actor, { kind: input.kind ?? 'manual', ...input }, input.lines, now))
  return getMission(svc, id)
}

/**
 * `POST mission/to-line`: a work order's components to the line. Per component: what the work
 * order needs (its bom times its jobs and batches) less what its missions already carry (not
 * cancelled) to that position, taken from the positions holding it (largest first; serials one
 * by one), never from the destination itself. What stock cannot cover is answered as
 * `shortfalls`; with nothing to carry at all, 422 MISSION_EMPTY (with the shortfalls).
 */
export async function createToLineMission(svc: Svc, actor: Actor, input: MissionToLineInput): Promise<MissionDetail> {
  const now = svc.clock.now()
  const needs = await workOrderNeeds(svc.db, input.work_order_key)
  if (!needs) throw unprocessable('NOT_FOUND', 'work order not found')
  const ws = await readWarehouseSettings(svc.db)
  const to = input.to_position_key ?? ws.default_consumption_position_key
  if (!to) {
    throw conflict('WAREHOUSE_POSITION_NOT_SET', 'no destination: choose a position or set the default consumption position (admin, warehouse settings)', {
      position: 'consumption',
    })
  }
  const destination = await findPosition(svc.db, to)
  if (!destination) throw unprocessable('UNKNOWN_POSITION', 'destination position not found')

  // What the work order needs, per component (a component used in several phases adds up).
  const required = new Map<string, { code: string; quantity: number }>()
  for (const line of needs.lines) {
    const phase = needs.phases.find((p) => p.phase_id === line.phase_id)!
    const jobs = needs.jobs.filter((j) => j.phase_id === line.phase_id)
    const need = phaseNeed(line, jobs.length ? jobs : [{ quantity: needs.wo.planned_qt }], (phase.parameters as PhaseParameters).production_batch_qt ?? 0)
    const prev = required.get(line.item_id)
    required.set(line.item_id, { code: line.item_code, quantity: round4((prev?.quantity ?? 0) + need) })
  }
  // What its missions already bring there.
  const carried = new Map<string, number>()
  for (const m of await allMovements(svc, { work_order_key: needs.wo.id, origin_type: ORIGIN })) {
    if (m.status === 'cancelled' || m.to_position_key !== destination.id || m.reverted_by_key) continue
    carried.set(m.product_key, round4((carried.get(m.product_key) ?? 0) + (m.confirmed_quantity ?? m.planned_quantity)))
  }

  const usableCache = new Map<string, boolean>()
  const usable = async (key: string) => {
    if (!usableCache.has(key)) {
      const p = await findPosition(svc.db, key)
      usableCache.set(key, Boolean(p?.active && p.available))
    }
    return usableCache.get(key)!
  }
  const lines: MissionLineInput[] = []
  const shortfalls: MissionShortfall[] = []
  for (const [item, need] of required) {
    const toBring = round4(need.quantity - (carried.get(item) ?? 0))
    if (toBring <= 0) continue
    let rest = toBring
    const sources = (await stockByPosition(svc.db, item))
      .filter((s) => s.position_key !== destination.id && s.quantity > 0)
      .sort((a, b) => b.quantity - a.quantity || a.position_code.localeCompare(b.position_code))
    for (const s of sources) {
      if (rest <= 0) break
      // Only stock that may be used: active positions flagged available (SPEC 3 position flags).
      if (!(await usable(s.position_key))) continue
      // A serial is one piece: it goes whole or not at all.
      if (s.serial && s.quantity > rest) continue
      const quantity = round4(Math.min(rest, s.quantity))
      lines.push({ product_key: item, from_position_key: s.position_key, to_position_key: destination.id, quantity, serial: s.serial })
      rest = round4(rest - quantity)
    }
    if (rest > 0) shortfalls.push({ product_key: item, product_code: need.code, needed: toBring, planned: round4(toBring - rest) })
  }
  if (lines.length === 0) {
    const message = required.size === 0 ? 'the work order has no components' : shortfalls.length ? 'no stock of the missing components' : 'the components are already brought to the line'
    throw unprocessable('MISSION_EMPTY', `nothing to bring to ${destination.code}: ${message}`, { shortfalls })
  }
  const id = await svc.db
    .transaction()
    .execute((trx) => insertMission(trx, actor, { kind: 'to_line', notes: input.notes, work_order_key: needs.wo.id, assignee_key: input.assignee_key }, lines, now))
  return { ...(await getMission(svc, id)), shortfalls }
}

/**
 * `POST mission/put-away`: finished goods from the production position (or `from_position_key`)
 * to `to_position_key`: `quantity` pieces (default everything there), serials one by one.
 */
export async function createPutAwayMission(svc: Svc, actor: Actor, input: MissionPutAwayInput): Promise<MissionDetail> {
  const now = svc.clock.now()
  const workOrder = input.work_order_key ? await workOrderExists(svc.db, input.work_order_key) : undefined
  if (input.work_order_key && !workOrder) throw unprocessable('NOT_FOUND', 'work order not found')
  const product = input.product_key ?? workOrder?.product_id
  if (!product) throw unprocessable('MISSION_EMPTY', 'say which product to put away (product_key or work_order_key)')
  const ws = await readWarehouseSettings(svc.db)
  const fromKey = input.from_position_key ?? ws.default_production_position_key
  if (!fromKey) {
    throw conflict('WAREHOUSE_POSITION_NOT_SET', 'no origin: choose a position or set the default production position (admin, warehouse settings)', {
      position: 'production',
    })
  }
  const from = await findPosition(svc.db, fromKey)
  if (!from) throw unprocessable('UNKNOWN_POSITION', 'origin position not found')
  const toPosition = await findPosition(svc.db, input.to_position_key)
  if (!toPosition) throw unprocessable('UNKNOWN_POSITION', 'destination position not found')
  const here = (await stockByPosition(svc.db, product)).filter((s) => s.position_key === from.id && s.quantity > 0)
  let rest = input.quantity ?? round4(here.reduce((sum, s) => sum + s.quantity, 0))
  const lines: MissionLineInput[] = []
  for (const s of here.sort((a, b) => Number(Boolean(a.serial)) - Number(Boolean(b.serial)) || (a.serial ?? '').localeCompare(b.serial ?? ''))) {
    if (rest <= 0) break
    if (s.serial && s.quantity > rest) continue
    const quantity = round4(Math.min(rest, s.quantity))
    lines.push({ product_key: product, from_position_key: from.id, to_position_key: toPosition.id, quantity, serial: s.serial })
    rest = round4(rest - quantity)
  }
  if (lines.length === 0) throw unprocessable('MISSION_EMPTY', `nothing of this product at ${from.code} to put away`)
  const id = await svc.db
    .transaction()
    .execute((trx) =>
      insertMission(trx, actor, { kind: 'put_away', notes: input.notes, work_order_key: workOrder?.id ?? null, assignee_key: input.assignee_key }, lines, now),
    )
  const detail = await getMission(svc, id)
  const short = rest > 0 ? [{ product_key: product, product_code: detail.lines[0]?.movement.product_code ?? '', needed: round4((input.quantity ?? 0)), planned: round4((input.quantity ?? 0) - rest) }] : []
  return { ...detail, shortfalls: short }
}

/** `POST mission/{key}/assign`: to a warehouse user, or to nobody (null). */
export async function assignMission(svc: Svc, actor: Actor, key: string, input: MissionAssignInput): Promise<MissionDetail> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const mission = isUuid(key) ? await lockMission(trx, key) : undefined
    if (!mission) throw missionNotFound()
    if (mission.status === 'done' || mission.status === 'cancelled') throw notOpen(missionCode(mission.number), mission.status)
    const assignee = await checkedAssignee(trx, input.assignee_key)
    if (assignee === mission.assignee_id) return
    await trx.updateTable('missions').set({ assignee_id: assignee, updated_at: now }).where('id', '=', mission.id).execute()
    await appendEvent(trx, actor, missionEvent(mission.id, 'MISSION_ASSIGNED', { assignee_key: assignee, previous_assignee_key: mission.assignee_id }), now)
  })
  return getMission(svc, key)
}

/** `POST mission/{key}/cancel`: its movements still planned are cancelled; lines carried out stay (revert them in movements). */
export async function cancelMission(svc: Svc, actor: Actor, key: string): Promise<MissionDetail> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const mission = isUuid(key) ? await lockMission(trx, key) : undefined
    if (!mission) throw missionNotFound()
    if (mission.status === 'done' || mission.status === 'cancelled') throw notOpen(missionCode(mission.number), mission.status)
    // Cancelled first: followMissionMovement then leaves the mission alone while its movements are cancelled.
    await trx.updateTable('missions').set({ status: 'cancelled', ended_at: now, updated_at: now }).where('id', '=', mission.id).execute()
    const lines = (await selectMissionLines(trx, mission.id)).filter((l) => l.done_at === null)
    const movements = await movementsByKeys(trx, lines.map((l) => l.movement_id))
    let cancelled = 0
    for (const line of lines) {
      if (movements.get(line.movement_id)?.status !== 'planned') continue
      await cancelMovementInTrx(trx, actor, line.movement_id, now)
      cancelled++
    }
    await appendEvent(trx, actor, missionEvent(mission.id, 'MISSION_CANCELLED', { code: missionCode(mission.number), movements_cancelled: cancelled }), now)
  })
  return getMission(svc, key)
}

const same = (a: string | null | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase()

type OpenLine = { line: { _key: string }; movement: MovementRow }

/**
 * The one rule of a mission line (registered with the warehouse service, so it holds wherever the
 * line's movement is confirmed or cancelled: scan, list, movements screen, REST), in the
 * movement's transaction. Confirmed: the line is done (MISSION_LINE_DONE), the mission in
 * progress. Cancelled: the line is dropped (MISSION_LINE_CANCELLED). When no line is left to
 * carry out, the mission is done (MISSION_COMPLETED) or, if none was carried out, cancelled
 * (MISSION_CANCELLED). A mission already done or cancelled is left as it is (cancelMission marks
 * it cancelled before cancelling its movements).
 */
export async function followMissionMovement(trx: Db, actor: Actor | null, movement: MovementSettled, now: Date): Promise<void> {
  const line = await trx.selectFrom('mission_lines').select(['id', 'mission_id', 'done_at']).where('movement_id', '=', movement.id).executeTakeFirst()
  if (!line || line.done_at) return
  const mission = await lockMission(trx, line.mission_id)
  if (!mission || mission.status === 'done' || mission.status === 'cancelled') return
  const lines = await selectMissionLines(trx, mission.id)
  const movements = await movementsByKeys(trx, lines.map((l) => l.movement_id))
  const confirmed = movement.status === 'confirmed'
  const left = lines.filter((l) => l._key !== line.id && l.done_at === null && movements.get(l.movement_id)?.status === 'planned').length
  const anyDone = confirmed || lines.some((l) => l.done_at !== null)
  const m = movements.get(movement.id)!
  if (confirmed) await trx.updateTable('mission_lines').set({ done_at: now, done_by: actor?.userId ?? null }).where('id', '=', line.id).execute()
  const status = left > 0 ? (confirmed ? 'in_progress' : mission.status) : anyDone ? 'done' : 'cancelled'
  await trx
    .updateTable('missions')
    .set({ status, started_at: confirmed ? (mission.started_at ?? now) : mission.started_at, ...(left === 0 ? { ended_at: now } : {}), updated_at: now })
    .where('id', '=', mission.id)
    .execute()
  await appendEvent(
    trx,
    actor,
    missionEvent(mission.id, confirmed ? 'MISSION_LINE_DONE' : 'MISSION_LINE_CANCELLED', {
      line_key: line.id,
      movement_key: movement.id,
      product_code: m.product_code,
      serial: m.serial,
      quantity: confirmed ? (m.confirmed_quantity ?? m.planned_quantity) : m.planned_quantity,
      from_position_code: m.from_position_code,
      to_position_code: m.to_position_code,
      lines_left: left,
    }),
    now,
  )
  if (left === 0) {
    const code = missionCode(mission.number)
    await appendEvent(trx, actor, missionEvent(mission.id, status === 'done' ? 'MISSION_COMPLETED' : 'MISSION_CANCELLED', { code, ...(status === 'done' ? {} : { movements_cancelled: 0 }) }), now)
  }
}
onMovementSettled(ORIGIN, followMissionMovement)

/** Carries out a line: its movement is confirmed (the stock moves) and followMissionMovement does the rest. */
async function carryOutLine(trx: Db, actor: Actor, match: OpenLine, now: Date) {
  await confirmMovementInTrx(trx, actor, match.movement._key, undefined, now)
}

/**
 * Confirms a planned movement from a movement list: a movement of a mission carries out its
 * mission line (as a scan would: line done, mission progress, events); any other is confirmed
 * by the warehouse service. Answers the movement as it is now.
 */
export async function carryOutMovement(svc: Svc, actor: Actor, movementKey: string): Promise<MovementRow> {
  const now = svc.clock.now()
  const line = isUuid(movementKey)
    ? await svc.db.selectFrom('mission_lines').select(['id', 'mission_id']).where('movement_id', '=', movementKey).executeTakeFirst()
    : undefined
  if (!line) return confirmMovement(svc as Services, actor, movementKey)
  await svc.db.transaction().execute(async (trx) => {
    const mission = (await lockMission(trx, line.mission_id))!
    if (mission.status === 'done' || mission.status === 'cancelled') throw notOpen(missionCode(mission.number), mission.status)
    const lines = (await selectMissionLines(trx, mission.id)).filter((l) => l.done_at === null)
    const movements = await movementsByKeys(trx, lines.map((l) => l.movement_id))
    const todo = lines.map((l) => ({ line: l, movement: movements.get(l.movement_id)! })).filter((o) => o.movement.status === 'planned')
    const match = todo.find((o) => o.movement._key === movementKey)
    if (!match) throw conflict('MOVEMENT_NOT_PLANNED', 'the movement is no longer planned')
    await carryOutLine(trx, actor, match, now)
  })
  return (await movementsByKeys(svc.db, [movementKey])).get(movementKey)!
}

/**
 * `POST mission/{key}/scan`: the operator scanned a position, then a product code or a serial
 * there. The first line still to do that leaves from that position with that serial (or that
 * product, for a line without serial) is carried out: its movement is confirmed (the stock
 * moves) and the line is done; the last line completes the mission. A wrong scan changes nothing
 * and says what is wrong: 422 MISSION_SCAN_POSITION (unknown position, or nothing to take there),
 * 422 MISSION_SCAN_ITEM (not expected there; a serial-tracked line wants its serial).
 */
export async function scanMission(svc: Svc, actor: Actor, key: string, input: MissionScanInput): Promise<MissionScanResult> {
  const now = svc.clock.now()
  const lineKey = await svc.db.transaction().execute(async (trx) => {
    const mission = isUuid(key) ? await lockMission(trx, key) : undefined
    if (!mission) throw missionNotFound()
    const code = missionCode(mission.number)
    if (mission.status === 'done' || mission.status === 'cancelled') throw notOpen(code, mission.status)
    const position = await positionByCode(trx, input.position_code)
    if (!position) {
      throw unprocessable('MISSION_SCAN_POSITION', `position ${input.position_code.trim()} does not exist`, { position_code: input.position_code.trim() })
    }
    const lines = (await selectMissionLines(trx, mission.id)).filter((l) => l.done_at === null)
    const movements = await movementsByKeys(trx, lines.map((l) => l.movement_id))
    const open = lines.map((line) => ({ line, movement: movements.get(line.movement_id)! }))
    const todo = open.filter((o) => o.movement.status === 'planned')
    const here = todo.filter((o) => o.movement.from_position_key === position.id)
    if (here.length === 0) {
      const elsewhere = [...new Set(todo.map((o) => o.movement.from_position_code).filter(Boolean))]
      throw unprocessable(
        'MISSION_SCAN_POSITION',
        `nothing to take at ${position.code} in mission ${code}${elsewhere.length ? `: go to ${elsewhere.join(', ')}` : ''}`,
        { position_code: position.code, expected_positions: elsewhere },
      )
    }
    const item = input.item_code.trim()
    const match =
      here.find((o) => o.movement.serial && same(o.movement.serial, item)) ?? here.find((o) => !o.movement.serial && same(o.movement.product_code, item))
    if (!match) {
      const wantsSerial = here.find((o) => o.movement.serial && same(o.movement.product_code, item))
      const expected = [...new Set(here.map((o) => o.movement.serial || o.movement.product_code))]
      throw unprocessable(
        'MISSION_SCAN_ITEM',
        wantsSerial
          ? `${item} is serial-tracked here: scan the serial (${expected.join(', ')})`
          : `${item} is not to be taken at ${position.code} in mission ${code}: expected ${expected.join(', ')}`,
        { item_code: item, position_code: position.code, expected },
      )
    }
    await carryOutLine(trx, actor, match, now)
    return match.line._key
  })
  return { line_key: lineKey, mission: await getMission(svc, key) }
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function getMission(svc: Pick<Services, 'db'>, key: string): Promise<MissionDetail> {
  const row = isUuid(key) ? await selectMissions(svc.db).where('m.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw missionNotFound()
  const lines = await selectMissionLines(svc.db, row._key)
  const movements = await movementsByKeys(svc.db, lines.map((l) => l.movement_id))
  return {
    ...withCode(row),
    lines: lines.map((l) => ({ _key: l._key, position: l.position, done_at: l.done_at, done_by_name: l.done_by_name, movement: movements.get(l.movement_id)! })),
  }
}

const withCode = <T extends { number: number }>(row: T) => ({ ...row, code: missionCode(row.number) })

/** `GET mission` / missions.list: newest first, by status ('active' = open or in progress), kind, assignee, work order. */
export async function listMissions(svc: Pick<Services, 'db'>, actor: Actor | null, input: MissionListInput): Promise<MissionList> {
  let q = selectMissions(svc.db)
  if (input.status === 'active') q = q.where('m.status', 'in', ['open', 'in_progress'])
  else if (input.status) q = q.where('m.status', '=', input.status)
  if (input.kind) q = q.where('m.kind', '=', input.kind)
  if (input.assignee_key) q = q.where('m.assignee_id', '=', input.assignee_key)
  if (input.mine && actor) q = q.where('m.assignee_id', '=', actor.userId)
  if (input.work_order_key) q = q.where('m.work_order_id', '=', input.work_order_key)
  const size = input.page_size ?? 50
  const page = input.page ?? 1
  const [rows, count] = await Promise.all([
    q
      .orderBy('m.number', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: rows.map(withCode) as MissionRow[], total: Number(count.n) }
}

/** Work orders for the mission forms: code contains `search` (at least 3 characters: SPEC 5), the first 100. */
export async function listWorkOrderChoices(svc: Pick<Services, 'db'>, search: string): Promise<WorkOrderChoice[]> {
  if (search.trim().length < 3) return []
  return workOrderChoices(svc.db, search)
}

/** Who a mission can be assigned to: enabled users with the warehouse permission. */
export async function listAssignees(svc: Pick<Services, 'db'>): Promise<AssigneeChoice[]> {
  return (await assigneeCandidates(svc.db))
    .filter((u) => hasScope(u.scope, 'warehouse'))
    .map((u) => ({ _key: u.id, name: `${u.name} ${u.surname}`.trim() || u.username }))
}
