import { sql } from 'kysely'
import { WORK_ORDER_SERIALS_LIMIT, type WorkOrderConsumedSerial, type WorkOrderProducedSerial, type WorkOrderSerials } from '../../../src/domains/serials/work-order-serials'
import { isUuid } from '../../../src/uuid'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import { notFound } from '../../errors'

const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

/**
 * The links of a work order's consumption: a component serial put inside a serial this work order
 * produced, or linked in one of its batches (a link made while a batch of it was open). Both ways
 * use an index (serials by work order, links by parent; links by batch).
 */
function consumedLinkIds(db: Db, workOrderId: string) {
  return db
    .selectFrom('serial_links as l')
    .innerJoin('serials as ps', 'ps.id', 'l.parent_serial_id')
    .select('l.id')
    .where('ps.work_order_id', '=', workOrderId)
    .union(
      db
        .selectFrom('serial_links as l')
        .innerJoin('batches as b', 'b.id', 'l.batch_id')
        .innerJoin('jobs as j', 'j.id', 'b.job_id')
        .select('l.id')
        .where('j.work_order_id', '=', workOrderId),
    )
}

/**
 * SPEC 2, the work order's Tracciabilità tab: the serials it produced (oldest first, with how many
 * components each holds) and the component serials it consumed (by the serial they went into),
 * each the first WORK_ORDER_SERIALS_LIMIT rows with the total. An unknown work order is 404.
 */
export async function getWorkOrderSerials(svc: Services, workOrderKey: string): Promise<WorkOrderSerials> {
  const wo = isUuid(workOrderKey) ? await svc.db.selectFrom('work_orders').select(['id', 'code']).where('id', '=', workOrderKey).executeTakeFirst() : undefined
  if (!wo) throw notFound('NOT_FOUND', 'work order not found')
  const db = svc.db
  const producedQuery = db
    .selectFrom('serials as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .leftJoin('product_phases as ph', 'ph.id', 's.phase_id')
    .leftJoin('batches as b', 'b.id', 's.batch_id')
    .leftJoin('users as u', 'u.id', 's.operator_id')
    .select([
      's.id as serial_key',
      's.code',
      'p.code as product_code',
      'p.description as product_description',
      'ph.name as phase_name',
      'b.number as batch_number',
      sql<string | null>`case when u.id is null then null else trim(u.name || ' ' || u.surname) end`.as('operator_name'),
      's.state',
      ms('s.created_at').as('created_at'),
      sql<number>`(select count(*) from serial_links c where c.parent_serial_id = s.id)::int`.as('components'),
    ])
    .where('s.work_order_id', '=', wo.id)
    .orderBy('s.created_at')
    .orderBy('s.code')
    .limit(WORK_ORDER_SERIALS_LIMIT)
    .$castTo<WorkOrderProducedSerial>()
  const consumedQuery = db
    .selectFrom('serial_links as l')
    .innerJoin('serials as c', 'c.id', 'l.child_serial_id')
    .innerJoin('serials as ps', 'ps.id', 'l.parent_serial_id')
    .innerJoin('products as p', 'p.id', 'c.product_id')
    .leftJoin('product_phases as ph', 'ph.id', 'l.phase_id')
    .leftJoin('batches as b', 'b.id', 'l.batch_id')
    .select([
      'l.id as link_key',
      'c.id as serial_key',
      'c.code',
      'p.code as product_code',
      'p.description as product_description',
      'ps.id as parent_key',
      'ps.code as parent_code',
      'ph.name as phase_name',
      'b.number as batch_number',
      'l.state',
      ms('l.created_at').as('created_at'),
    ])
    .where('l.id', 'in', consumedLinkIds(db, wo.id))
    .orderBy('ps.code')
    .orderBy('c.code')
    .limit(WORK_ORDER_SERIALS_LIMIT)
    .$castTo<WorkOrderConsumedSerial>()
  const [produced, consumed, producedTotal, consumedTotal] = await Promise.all([
    producedQuery.execute(),
    consumedQuery.execute(),
    db
      .selectFrom('serials')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('work_order_id', '=', wo.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom(consumedLinkIds(db, wo.id).as('x'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { work_order_key: wo.id, work_order_code: wo.code, produced, produced_total: Number(producedTotal.n), consumed, consumed_total: Number(consumedTotal.n) }
}
