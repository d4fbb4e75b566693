import { sql } from 'kysely'
import type { Db } from '../../db/connect'

const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`
const msOrNull = (column: string) => sql<number | null>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`
const fullName = (alias: string) => sql<string | null>`nullif(trim(${sql.ref(`${alias}.name`)} || ' ' || ${sql.ref(`${alias}.surname`)}), '')`

/** Missions as lists show them, with their work order, people and progress (lines carried out). */
export function selectMissions(db: Db) {
  return db
    .selectFrom('missions as m')
    .leftJoin('work_orders as w', 'w.id', 'm.work_order_id')
    .leftJoin('users as a', 'a.id', 'm.assignee_id')
    .leftJoin('users as c', 'c.id', 'm.created_by')
    .select([
      'm.id as _key',
      'm.number',
      'm.kind',
      'm.status',
      'm.notes',
      'm.work_order_id as work_order_key',
      'w.code as work_order_code',
      'm.assignee_id as assignee_key',
      sql<string | null>`coalesce(${fullName('a')}, a.username)`.as('assignee_name'),
      sql<string | null>`coalesce(${fullName('c')}, c.username)`.as('created_by_name'),
      ms('m.created_at').as('created_at'),
      msOrNull('m.started_at').as('started_at'),
      msOrNull('m.ended_at').as('ended_at'),
      sql<number>`(select count(*)::int from mission_lines l where l.mission_id = m.id)`.as('lines_total'),
      sql<number>`(select count(*)::int from mission_lines l where l.mission_id = m.id and l.done_at is not null)`.as('lines_done'),
    ])
}

export function selectMissionLines(db: Db, missionId: string) {
  return db
    .selectFrom('mission_lines as l')
    .leftJoin('users as u', 'u.id', 'l.done_by')
    .select([
      'l.id as _key',
      'l.position',
      'l.movement_id',
      msOrNull('l.done_at').as('done_at'),
      sql<string | null>`coalesce(${fullName('u')}, u.username)`.as('done_by_name'),
    ])
    .where('l.mission_id', '=', missionId)
    .orderBy('l.position')
    .execute()
}

export function lockMission(db: Db, id: string) {
  return db.selectFrom('missions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

/** A user who may carry out missions: enabled, not archived, with the warehouse scope. */
export function userForAssignment(db: Db, id: string) {
  return db.selectFrom('users').select(['id', 'scope', 'enabled', 'archived_at']).where('id', '=', id).executeTakeFirst()
}

export function workOrderExists(db: Db, id: string) {
  return db.selectFrom('work_orders').select(['id', 'code', 'product_id']).where('id', '=', id).executeTakeFirst()
}

/** Work orders whose code contains `search` (any case), not archived, by code; the first 100. */
export function workOrderChoices(db: Db, search: string) {
  const pattern = `%${search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return db
    .selectFrom('work_orders as w')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .select(['w.id as _key', 'w.code', 'p.code as product_code', 'p.description as product_description', 'w.planned_qt', 'w.status'])
    .where(sql<string>`lower(w.code)`, 'like', pattern)
    .where('w.archived_at', 'is', null)
    .orderBy('w.code')
    .limit(100)
    .execute()
}

/** Enabled, not archived users whose scope holds the warehouse permission (matched in the service). */
export function assigneeCandidates(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'surname', 'scope'])
    .where('enabled', '=', true)
    .where('archived_at', 'is', null)
    .where('scope', 'like', '%warehouse%')
    .orderBy('surname')
    .orderBy('name')
    .limit(1000)
    .execute()
}
