import { sql } from 'kysely'
import type { Db } from '../db/connect'

/**
 * For fixtures that write process rows straight to the database: a new released revision of the
 * product, whose id the fixture gives the phases and bom lines it inserts (they are then that
 * revision's rows, as a release makes them) and the work orders made from it.
 */
export async function newTestRevision(db: Db, productId: string): Promise<string> {
  const last = await db.selectFrom('product_revisions').select('number').where('product_id', '=', productId).orderBy('number', 'desc').limit(1).executeTakeFirst()
  const { id } = await db
    .insertInto('product_revisions')
    .values({ product_id: productId, number: (last?.number ?? 0) + 1, reason: 'test fixture', released_by: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** The product's latest revision, made when it has none (a work order needs one). */
export async function testRevisionOf(db: Db, productId: string): Promise<string> {
  const last = await db.selectFrom('product_revisions').select('id').where('product_id', '=', productId).orderBy('number', 'desc').limit(1).executeTakeFirst()
  return last?.id ?? newTestRevision(db, productId)
}

/**
 * Lets a test reshape the rows of a revision its fixture released (a department, a counter, a bom
 * flag) without a fixture option for each: the frozen-row triggers are skipped for this one
 * transaction (session_replication_role; the test databases connect as a superuser).
 */
export async function reshapeReleased<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx)
    return fn(trx)
  })
}

/** The draft a release leaves behind: a copy of the revision's phases (same lineage and steps), for fixtures the library screens read too. */
export async function draftFromRevision(db: Db, revisionId: string): Promise<void> {
  await sql`
    insert into product_phases (product_id, position, name, operation_id, department_id, parameters, steps, production_notes, print_templates, traceability_level, counter_id, lineage)
    select product_id, position, name, operation_id, department_id, parameters, steps, production_notes, print_templates, traceability_level, counter_id, lineage
    from product_phases where revision_id = ${revisionId}`.execute(db)
}
