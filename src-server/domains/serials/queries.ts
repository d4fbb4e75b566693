import { sql } from 'kysely'
import type { SerialLinkRow, SerialRow } from '../../../src/domains/serials/schemas'
import type { Db } from '../../db/connect'

const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

/** Serial rows with the names of where they were made (product, work order, batch, phase, operator). */
export function selectSerialRows(db: Db) {
  return db
    .selectFrom('serials as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .leftJoin('work_orders as wo', 'wo.id', 's.work_order_id')
    .leftJoin('batches as b', 'b.id', 's.batch_id')
    .leftJoin('product_phases as ph', 'ph.id', 's.phase_id')
    .leftJoin('users as u', 'u.id', 's.operator_id')
    .select([
      's.id as _key',
      's.code',
      's.product_id as product_key',
      'p.code as product_code',
      'p.description as product_description',
      's.work_order_id as work_order_key',
      'wo.code as work_order_code',
      sql<number | null>`(select r.number from product_revisions r where r.id = wo.revision_id)`.as('revision_number'),
      's.job_id as job_key',
      's.batch_id as batch_key',
      'b.number as batch_number',
      's.phase_id as phase_key',
      'ph.name as phase_name',
      's.operator_id as operator_key',
      sql<string | null>`case when u.id is null then null else trim(u.name || ' ' || u.surname) end`.as('operator_name'),
      's.data',
      's.state',
      ms('s.created_at').as('created_at'),
      ms('s.updated_at').as('updated_at'),
    ])
    .$castTo<SerialRow>()
}

/** Links seen from one serial: `other` names the column holding the serial shown in each row. */
export function selectLinkRows(db: Db, other: 'parent_serial_id' | 'child_serial_id') {
  return db
    .selectFrom('serial_links as l')
    .innerJoin('serials as o', 'o.id', `l.${other}`)
    .innerJoin('products as p', 'p.id', 'o.product_id')
    .select([
      'l.id as link_key',
      'o.id as serial_key',
      'o.code',
      'p.code as product_code',
      'p.description as product_description',
      'l.phase_id as phase_key',
      'l.bom_line_id as component_key',
      'l.batch_id as batch_key',
      'l.state',
      ms('l.created_at').as('created_at'),
    ])
    .$castTo<SerialLinkRow>()
}

/** The events of one serial, oldest first, with who made them. */
export function selectSerialHistory(db: Db, serialId: string) {
  return db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select([
      sql<string>`e.id::text`.as('_key'),
      'e.event_type',
      'e.user_id as user_key',
      sql<string | null>`case when u.id is null then null else trim(u.name || ' ' || u.surname) end`.as('user_name'),
      ms('e.created_at').as('created_at'),
      sql<Record<string, unknown>>`e.data`.as('data'),
    ])
    .where('e.subject_type', '=', 'serial')
    .where('e.subject_key', '=', serialId)
    .orderBy('e.id')
}

/** A serial by its key for a change, locked until the transaction ends. */
export function lockSerial(db: Db, id: string) {
  return db.selectFrom('serials').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

/** Link writes take this lock so that two links made at once cannot close a cycle between them. */
export async function lockSerialLinks(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('mes.serial_links'))`.execute(db)
}

/** The serials a serial is inside, nearest first (its parent, the parent's parent, ...). */
export async function ancestorIds(db: Db, id: string, maxDepth: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive up(id, depth, seen) as (
      select l.parent_serial_id, 1, array[${id}::uuid, l.parent_serial_id]
      from serial_links l where l.child_serial_id = ${id}
      union all
      select l.parent_serial_id, up.depth + 1, up.seen || l.parent_serial_id
      from up join serial_links l on l.child_serial_id = up.id
      where up.depth < ${maxDepth} and not l.parent_serial_id = any(up.seen)
    )
    select id from up order by depth`.execute(db)
  return rows.map((r) => r.id)
}
