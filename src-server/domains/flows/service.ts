import { sql } from 'kysely'
import type { DeliveryListInput, DeliveryPage, DeliveryRow, FlowCreateInput, FlowPatchInput, FlowRow } from '../../../src/domains/flows/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData, HIDDEN } from '../events/changes'
import { requeueDelivery } from './queue'
import { newFlowSecret } from './signature'

/**
 * Data flows (admin/flows): outbound webhook flows, their delivery log and "redeliver".
 * Sending is src-server/domains/flows/queue.ts (pg-boss); the event append queues deliveries.
 */
const flowNotFound = () => notFound('NOT_FOUND', 'flow not found')
const nameTaken = () => conflict('FLOW_NAME_TAKEN', 'a flow with this name already exists')
const SUBJECT = 'flow'
const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`
const msOrNull = (column: string) => sql<number | null>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

function selectFlows(db: Db) {
  return db
    .selectFrom('flows as f')
    .select([
      'f.id as _key',
      'f.name',
      'f.url',
      'f.secret',
      'f.event_types',
      'f.active',
      ms('f.created_at').as('created_at'),
      ms('f.updated_at').as('updated_at'),
      sql<number>`(select count(*) from flow_deliveries d where d.flow_id = f.id and d.status = 'pending')::int`.as('pending'),
      sql<number>`(select count(*) from flow_deliveries d where d.flow_id = f.id and d.status = 'delivered')::int`.as('delivered'),
      sql<number>`(select count(*) from flow_deliveries d where d.flow_id = f.id and d.status = 'failed')::int`.as('failed'),
    ])
}

export async function listFlows(svc: Pick<Services, 'db'>): Promise<FlowRow[]> {
  return selectFlows(svc.db).orderBy(sql`lower(f.name)`).orderBy('f.id').execute()
}

export async function getFlow(svc: Pick<Services, 'db'>, key: string): Promise<FlowRow> {
  if (!isUuid(key)) throw flowNotFound()
  const row = await selectFlows(svc.db).where('f.id', '=', key).executeTakeFirst()
  if (!row) throw flowNotFound()
  return row
}

/** Without a secret, one is made (`whsec_` + 32 random bytes): the admin copies it to the receiver. */
export async function createFlow(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, input: FlowCreateInput): Promise<FlowRow> {
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('flows')
        .values({
          name: input.name,
          url: input.url,
          secret: input.secret ?? newFlowSecret(),
          event_types: sql<string[]>`${[...new Set(input.event_types)]}::text[]` as never,
          active: input.active ?? true,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'FLOW_CREATED', subject_type: SUBJECT, subject_key: id, data: { name: input.name, url: input.url, event_types: input.event_types } }, now)
      return id
    })
    return getFlow(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

export async function patchFlow(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, key: string, patch: FlowPatchInput): Promise<FlowRow> {
  const old = await getFlow(svc, key)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('flows')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.url !== undefined ? { url: patch.url } : {}),
          ...(patch.secret !== undefined ? { secret: patch.secret } : {}),
          ...(patch.event_types !== undefined ? { event_types: sql<string[]>`${[...new Set(patch.event_types)]}::text[]` as never } : {}),
          ...(patch.active !== undefined ? { active: patch.active } : {}),
          updated_at: now,
        })
        .where('id', '=', key)
        .execute()
      const { secret: _, ...shown } = patch
      const changes = {
        ...changesOf(old, { ...shown, ...(shown.event_types ? { event_types: [...new Set(shown.event_types)] } : {}) }),
        // The secret signs the webhooks: that it changed is recorded, never its value.
        ...(patch.secret ? { secret: { from: HIDDEN, to: HIDDEN } } : {}),
      }
      const data = editData(changes, { ...shown, ...(patch.secret ? { secret_changed: true } : {}) })
      await appendEvent(trx, actor, { event_type: 'FLOW_UPDATED', subject_type: SUBJECT, subject_key: key, data }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
  return getFlow(svc, key)
}

/** Deletes a flow and its delivery log; its waiting deliveries are dropped (their jobs find nothing). */
export async function deleteFlow(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, key: string): Promise<{ _key: string }> {
  const flow = await getFlow(svc, key)
  await svc.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('flows').where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: 'FLOW_DELETED', subject_type: SUBJECT, subject_key: key, data: { name: flow.name } }, svc.clock.now())
  })
  return { _key: key }
}

function selectDeliveries(db: Db) {
  return db
    .selectFrom('flow_deliveries as d')
    .select([
      'd.id as _key',
      'd.flow_id as flow_key',
      'd.seq',
      'd.event_id',
      'd.event_type',
      'd.status',
      'd.attempts',
      'd.last_status_code',
      'd.last_error',
      msOrNull('d.last_attempt_at').as('last_attempt_at'),
      msOrNull('d.delivered_at').as('delivered_at'),
      ms('d.created_at').as('created_at'),
      'd.body',
    ])
}

/** The delivery log of a flow, newest first, by pages (`before` = the last page's `next_before`). */
export async function listDeliveries(svc: Pick<Services, 'db'>, input: DeliveryListInput): Promise<DeliveryPage> {
  await getFlow(svc, input.flow_key)
  const limit = input.limit ?? 50
  let q = selectDeliveries(svc.db).where('d.flow_id', '=', input.flow_key)
  if (input.status) q = q.where('d.status', '=', input.status)
  const before = input.before ?? input.cursor
  if (before) q = q.where('d.seq', '<', before)
  const rows = (await q.orderBy('d.seq', 'desc').limit(limit + 1).execute()) as DeliveryRow[]
  const more = rows.length > limit
  const page = rows.slice(0, limit)
  return { rows: page, next_before: more ? page[page.length - 1]!.seq : null }
}

export async function getDelivery(svc: Pick<Services, 'db'>, key: string): Promise<DeliveryRow> {
  const row = (await selectDeliveries(svc.db).where('d.id', '=', key).executeTakeFirst()) as DeliveryRow | undefined
  if (!row) throw notFound('NOT_FOUND', 'delivery not found')
  return row
}

/**
 * "Redeliver": sends a delivered or given-up delivery again with the same webhook-id and body
 * (receivers that de-duplicate by id see it once). One still waiting is already being retried: 409.
 */
export async function redeliver(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, key: string): Promise<DeliveryRow> {
  const before = await getDelivery(svc, key)
  if (before.status === 'pending') throw conflict('DELIVERY_PENDING', 'this delivery is still waiting to be delivered: it is retried automatically')
  await svc.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('flow_deliveries')
      .set({ status: 'pending', retry_from: svc.clock.now() })
      .where('id', '=', key)
      .where('status', '!=', 'pending')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) === 0) throw conflict('DELIVERY_PENDING', 'this delivery is still waiting to be delivered: it is retried automatically')
    await requeueDelivery(trx, key, before.flow_key)
    await appendEvent(trx, actor, { event_type: 'FLOW_REDELIVERED', subject_type: SUBJECT, subject_key: before.flow_key, data: { delivery_key: key } }, svc.clock.now())
  })
  return getDelivery(svc, key)
}
