import { sql } from 'kysely'
import {
  type MovementListCreateInput,
  type MovementListDetail,
  type MovementListRow,
  type MovementLists,
  type MovementListsInput,
  missionCode,
  movementListCode,
} from '../../../src/domains/missions/schemas'
import type { MovementRow } from '../../../src/domains/movements/schemas'
import type { PrintRow } from '../../../src/domains/printing/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { drawNumber } from '../../db/numbering'
import { notFound, unprocessable } from '../../errors'
import { invalidInput } from '../../input-issues'
import { appendEvent } from '../events/service'
import { movementsByKeys } from '../production-stock/queries'
import { printDocument } from '../prints/service'
import { movementListSheet, type SheetLanguage, sheetTitle } from './sheet'
import { allMovements } from '../production-stock/service'

/**
 * Movement lists (SPEC 2 warehouse "lists", SPEC 7 GET movement-list): movements grouped for
 * printing and carrying out. Made from the movements still planned of a work order (its picking
 * list), of a day (planned to start that day, plant calendar: the server's time zone) or of a
 * mission; the lines are fixed when the list is made, each read as its movement is now
 * (carried out = confirmed, through the warehouse's confirm). Event MOVEMENT_LIST_CREATED.
 */

type Svc = Pick<Services, 'db' | 'clock'>
const required = (path: string, message: string) => invalidInput([{ path, kind: 'required', message }])
const listNotFound = () => notFound('NOT_FOUND', 'movement list not found')

/** A day's first instant on the plant calendar (the server's time zone, as issues' date filters). */
function dayStart(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split(/[/-]/).map(Number) as [number, number, number]
  const start = new Date(0)
  start.setFullYear(y, m - 1, d + plusDays)
  start.setHours(0, 0, 0, 0)
  return start
}

const fullName = sql<string | null>`coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username)`

function selectLists(db: Db) {
  return db
    .selectFrom('movement_lists as l')
    .leftJoin('work_orders as w', 'w.id', 'l.work_order_id')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .select([
      'l.id as _key',
      'l.number',
      'l.kind',
      'l.title',
      'l.work_order_id as work_order_key',
      'w.code as work_order_code',
      'l.mission_id as mission_key',
      sql<string | null>`to_char(l.day, 'YYYY/MM/DD')`.as('day'),
      fullName.as('created_by_name'),
      sql<number>`(extract(epoch from l.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(select count(*)::int from movement_list_lines x where x.list_id = l.id)`.as('lines_total'),
    ])
}

const withCode = <T extends { number: number }>(row: T) => ({ ...row, code: movementListCode(row.number) })

/** `POST movement-list`: the planned movements of a work order, a day or a mission, in a new list. */
export async function createMovementList(svc: Svc, actor: Actor, input: MovementListCreateInput): Promise<MovementListDetail> {
  const now = svc.clock.now()
  let movements: MovementRow[]
  let title = input.title?.trim() ?? ''
  let workOrderId: string | null = null
  let missionId: string | null = null
  let day: string | null = null
  if (input.kind === 'work_order') {
    if (!input.work_order_key) throw required('work_order_key', 'a work order list needs the work order')
    const wo = await svc.db.selectFrom('work_orders').select(['id', 'code']).where('id', '=', input.work_order_key).executeTakeFirst()
    if (!wo) throw unprocessable('NOT_FOUND', 'work order not found')
    workOrderId = wo.id
    movements = await allMovements(svc, { work_order_key: wo.id, status: 'planned' })
    title ||= wo.code
  } else if (input.kind === 'mission') {
    if (!input.mission_key) throw required('mission_key', 'a mission list needs the mission')
    const mission = await svc.db.selectFrom('missions').select(['id', 'number', 'work_order_id']).where('id', '=', input.mission_key).executeTakeFirst()
    if (!mission) throw unprocessable('NOT_FOUND', 'mission not found')
    missionId = mission.id
    workOrderId = mission.work_order_id
    movements = await allMovements(svc, { origin_type: 'mission', origin_key: mission.id, status: 'planned' })
    title ||= missionCode(mission.number)
  } else {
    if (!input.day) throw required('day', 'a day list needs the day (YYYY/MM/DD)')
    day = input.day
    const from = dayStart(input.day).getTime()
    const to = dayStart(input.day, 1).getTime()
    movements = (await allMovements(svc, { status: 'planned' })).filter((m) => m.started_at >= from && m.started_at < to)
    title ||= input.day
  }
  if (movements.length === 0) throw unprocessable('MOVEMENT_LIST_EMPTY', 'no planned movements to put in the list')
  // Picking order: by origin position, then product, then serial.
  movements.sort(
    (a, b) =>
      (a.from_position_code ?? '').localeCompare(b.from_position_code ?? '') ||
      a.product_code.localeCompare(b.product_code) ||
      (a.serial ?? '').localeCompare(b.serial ?? '') ||
      a.number - b.number,
  )
  const id = await svc.db.transaction().execute(async (trx) => {
    const { id, number } = await trx
      .insertInto('movement_lists')
      .values({
        number: await drawNumber(trx, 'movement_list'),
        kind: input.kind,
        title,
        work_order_id: workOrderId,
        mission_id: missionId,
        day: day ? day.replaceAll('/', '-') : null,
        created_by: actor.userId,
        created_at: now,
      })
      .returning(['id', 'number'])
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('movement_list_lines')
      .values(movements.map((m, position) => ({ list_id: id, position, movement_id: m._key })))
      .execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'MOVEMENT_LIST_CREATED',
        subject_type: 'movement_list',
        subject_key: id,
        data: { code: movementListCode(number), kind: input.kind, work_order_key: workOrderId, mission_key: missionId, day, movements: movements.length },
      },
      now,
    )
    return id
  })
  return getMovementList(svc, id)
}

export async function getMovementList(svc: Pick<Services, 'db'>, key: string): Promise<MovementListDetail> {
  const row = isUuid(key) ? await selectLists(svc.db).where('l.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw listNotFound()
  const lines = await svc.db.selectFrom('movement_list_lines').select('movement_id').where('list_id', '=', row._key).orderBy('position').execute()
  const byKey = await movementsByKeys(svc.db, lines.map((l) => l.movement_id))
  return { ...withCode(row), movements: lines.flatMap((l) => byKey.get(l.movement_id) ?? []) }
}

/** `POST movement-list/{key}/print`: the list on A4 (sheet.ts), kept in the print log and sent to the printer when one is given. */
export async function printMovementList(svc: Services, actor: Actor, key: string, opts: { printerKey?: string | null; lang: SheetLanguage }): Promise<PrintRow> {
  const list = await getMovementList(svc, key)
  const pdf = await movementListSheet(list, opts.lang)
  return printDocument(svc, actor, { title: `${sheetTitle(opts.lang)} ${list.code}`, pdf, subject: { movement_list_key: list._key }, printerKey: opts.printerKey })
}

/** `GET movement-list`: newest first, by kind, work order, mission or day. */
export async function listMovementLists(svc: Pick<Services, 'db'>, input: MovementListsInput): Promise<MovementLists> {
  let q = selectLists(svc.db)
  if (input.kind) q = q.where('l.kind', '=', input.kind)
  if (input.work_order_key) q = q.where('l.work_order_id', '=', input.work_order_key)
  if (input.mission_key) q = q.where('l.mission_id', '=', input.mission_key)
  if (input.day) q = q.where('l.day', '=', input.day.replaceAll('/', '-'))
  const size = input.page_size ?? 50
  const page = input.page ?? 1
  const [rows, count] = await Promise.all([
    q
      .orderBy('l.number', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: rows.map(withCode) as MovementListRow[], total: Number(count.n) }
}
