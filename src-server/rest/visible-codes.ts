import { isUuid } from '../../src/uuid'
import type { Db } from '../db/connect'
import { notFound } from '../errors'

/** REST paths whose first parameter is a work order: `/work-order/{id}`, `/work-order/{key}/material` ... */
const WORK_ORDER_PATH = /^\/work-order\/\{(\w+)\}/

/** True for the path parameter that takes a work order code as well as its key (OpenAPI documents it so). */
export const takesVisibleCode = (path: string, name: string) => WORK_ORDER_PATH.exec(path)?.[1] === name

/**
 * Scripts and people hold the code they read (WO000007) more often than the key: a work-order
 * path takes either. A code is turned into the key before the input is checked; an unknown code
 * is 404 saying what the path takes.
 */
export async function keysForVisibleCodes(db: Db, path: string, params: Record<string, string>): Promise<Record<string, string>> {
  const name = WORK_ORDER_PATH.exec(path)?.[1]
  const value = name ? params[name] : undefined
  if (!name || !value || isUuid(value)) return params
  const row = await db.selectFrom('work_orders').select('id').where('code', '=', value.trim().toUpperCase()).executeTakeFirst()
  if (!row) throw notFound('NOT_FOUND', `work order ${value} not found: give its code (WO000007) or its key`)
  return { ...params, [name]: row.id }
}
