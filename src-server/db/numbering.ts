import { sql } from 'kysely'
import type { Db } from './connect'

/** The numberings people read (table `numberings`). */
export type Numbering = 'work_order_code' | 'issue_code' | 'movement' | 'mission' | 'movement_list'

/**
 * The next number of a numbering, drawn by the caller's transaction: the row stays locked until
 * it commits (the next writer waits) and a rollback gives the number back, so refused writes and
 * previews leave no hole.
 */
export async function drawNumber(trx: Db, name: Numbering): Promise<number> {
  const row = await trx
    .updateTable('numberings')
    .set({ last_value: sql`last_value + 1` })
    .where('name', '=', name)
    .returning('last_value')
    .executeTakeFirstOrThrow()
  return Number(row.last_value)
}

/**
 * Takes a numbering's row lock before any other lock of a transaction that will draw from it
 * later (an inventory count locks its stock lines first): waits come in one order, never a cycle.
 */
export async function lockNumbering(trx: Db, name: Numbering): Promise<void> {
  await trx.selectFrom('numberings').select('last_value').where('name', '=', name).forUpdate().execute()
}
