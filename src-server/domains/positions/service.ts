import { sql } from 'kysely'
import {
  POSITION_CODE_MAX,
  POSITION_LIST_LIMIT,
  POSITION_SEARCH_MIN,
  type PositionCreateInput,
  type PositionDetail,
  type PositionList,
  type PositionListInput,
  type PositionPatchInput,
  type PositionRow,
} from '../../../src/domains/positions/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isUniqueViolation, notFound, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { stockHeldIn } from '../movements/stock'
import { escapeLike, lockPositionTree, selectPositionRows } from './queries'

const positionNotFound = () => notFound('NOT_FOUND', 'position not found')
export const unknownPosition = (which: string) => unprocessable('UNKNOWN_POSITION', `${which} position not found`)
const codeTaken = (code: string) => conflict('POSITION_CODE_TAKEN', `position code ${code} is already used`)

function checkedCode(code: string | undefined): string {
  const trimmed = (code ?? '').trim()
  if (!trimmed) throw badRequest('POSITION_CODE_REQUIRED', 'position code required')
  if (trimmed.length > POSITION_CODE_MAX) throw badRequest('POSITION_CODE_REQUIRED', `a position code may have at most ${POSITION_CODE_MAX} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw badRequest('POSITION_CODE_REQUIRED', 'a position code cannot contain control characters')
  return trimmed
}

/** A position by key or null (any text that is not a key names none). */
export async function findPosition(db: Db, key: string | null | undefined) {
  if (!key || !isUuid(key)) return undefined
  return db.selectFrom('positions').selectAll().where('id', '=', key).executeTakeFirst()
}

/** The position a scanner read: exact code, any case. */
export async function positionByCode(db: Db, code: string) {
  return db.selectFrom('positions').selectAll().where(sql<string>`lower(code)`, '=', code.trim().toLowerCase()).executeTakeFirst()
}

/** The same, as lists show it (with the codes of its path). */
export async function positionRowByCode(db: Db, code: string): Promise<PositionRow | undefined> {
  return selectPositionRows(db).where(sql<string>`lower(p.code)`, '=', code.trim().toLowerCase()).executeTakeFirst()
}

async function positionRow(db: Db, id: string): Promise<PositionRow> {
  const row = await selectPositionRows(db).where('p.id', '=', id).executeTakeFirst()
  if (!row) throw positionNotFound()
  return row
}

/** `POST position`: a new position, at the top or inside an active parent. */
export async function createPosition(svc: Services, actor: Actor, input: PositionCreateInput): Promise<PositionRow> {
  const code = checkedCode(input.code)
  const now = svc.clock.now()
  const id = crypto.randomUUID()
  try {
    await svc.db.transaction().execute(async (trx) => {
      await lockPositionTree(trx)
      let path = `${id}/`
      if (input.parent_key) {
        const parent = await findPosition(trx, input.parent_key)
        if (!parent) throw unknownPosition('parent')
        if (!parent.active) throw unprocessable('POSITION_INACTIVE', `position ${parent.code} is deactivated`)
        path = `${parent.path}${id}/`
      }
      if (await positionByCode(trx, code)) throw codeTaken(code)
      await trx
        .insertInto('positions')
        .values({
          id,
          code,
          description: (input.description ?? '').trim(),
          parent_id: input.parent_key ?? null,
          path,
          owned: input.owned ?? true,
          fixed: input.fixed ?? true,
          available: input.available ?? true,
          disposable: input.disposable ?? false,
          created_at: now,
          updated_at: now,
        })
        .execute()
      await appendEvent(trx, actor, { event_type: 'POSITION_CREATED', subject_type: 'position', subject_key: id, data: { code, parent_key: input.parent_key ?? null } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken(code)
    throw e
  }
  return positionRow(svc.db, id)
}

/**
 * `PATCH position/{key}`: code, description, flags; `parent_key` moves it with everything inside
 * (never into itself or below itself: POSITION_INSIDE_ITSELF); `active: false` deactivates it when
 * it holds nothing and has no active positions inside (POSITION_NOT_EMPTY, POSITION_HAS_CHILDREN).
 */
export async function updatePosition(svc: Services, actor: Actor, key: string, patch: PositionPatchInput): Promise<PositionRow> {
  if (!isUuid(key)) throw positionNotFound()
  const now = svc.clock.now()
  const code = patch.code === undefined ? undefined : checkedCode(patch.code)
  try {
    await svc.db.transaction().execute(async (trx) => {
      await lockPositionTree(trx)
      const old = await trx.selectFrom('positions').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw positionNotFound()
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      const set: Record<string, unknown> = {}
      const change = (name: string, from: unknown, to: unknown) => {
        if (to === undefined || from === to) return
        changes[name] = { from, to }
        set[name] = to
      }
      if (code !== undefined && code !== old.code) {
        const other = await positionByCode(trx, code)
        if (other && other.id !== old.id) throw codeTaken(code)
        change('code', old.code, code)
      }
      change('description', old.description, patch.description?.trim())
      for (const flag of ['owned', 'fixed', 'available', 'disposable'] as const) change(flag, old[flag], patch[flag])
      if (patch.active === false && old.active) {
        if (await stockHeldIn(trx, old.id)) throw conflict('POSITION_NOT_EMPTY', `position ${old.code} still holds stock: empty it first`)
        const child = await trx.selectFrom('positions').select('code').where('parent_id', '=', old.id).where('active', '=', true).executeTakeFirst()
        if (child) throw conflict('POSITION_HAS_CHILDREN', `position ${old.code} contains active position ${child.code}: deactivate it first`)
      }
      change('active', old.active, patch.active)
      let newPath: string | null = null
      if (patch.parent_key !== undefined && patch.parent_key !== old.parent_id) {
        let parentPath = ''
        if (patch.parent_key) {
          const parent = await findPosition(trx, patch.parent_key)
          if (!parent) throw unknownPosition('parent')
          if (parent.path.startsWith(old.path)) {
            throw unprocessable('POSITION_INSIDE_ITSELF', `position ${old.code} cannot be moved inside itself or a position it contains (${parent.code})`)
          }
          if (!parent.active) throw unprocessable('POSITION_INACTIVE', `position ${parent.code} is deactivated`)
          parentPath = parent.path
        }
        changes.parent_key = { from: old.parent_id, to: patch.parent_key }
        set.parent_id = patch.parent_key
        newPath = `${parentPath}${old.id}/`
      }
      if (Object.keys(changes).length === 0) return
      await trx
        .updateTable('positions')
        .set({ ...set, updated_at: now })
        .where('id', '=', old.id)
        .execute()
      if (newPath) {
        await trx
          .updateTable('positions')
          .set({ path: sql`${newPath}::text || substr(path, ${old.path.length + 1})` })
          .where('path', 'like', `${escapeLike(old.path)}%`)
          .execute()
      }
      await appendEvent(trx, actor, { event_type: newPath ? 'POSITION_MOVED' : 'POSITION_UPDATED', subject_type: 'position', subject_key: old.id, data: { changes } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken(code ?? '')
    throw e
  }
  return positionRow(svc.db, key)
}

/** `GET position/{key}`: the position, the positions directly inside it and where it sits. */
export async function getPosition(svc: Pick<Services, 'db'>, key: string): Promise<PositionDetail> {
  if (!isUuid(key)) throw positionNotFound()
  const row = await positionRow(svc.db, key)
  const children = await selectPositionRows(svc.db).where('p.parent_id', '=', key).orderBy(sql`lower(p.code)`).limit(POSITION_LIST_LIMIT + 1).execute()
  return { ...row, children_rows: children.slice(0, POSITION_LIST_LIMIT) }
}

/**
 * `GET position` with params (SPEC 5: a search needs 3 characters and shows the first 100): code
 * starts with or description contains `search` (any case), `code` exact, the children of
 * `parent_key` or the top level (`root`), active or not. By code.
 */
export async function listPositions(svc: Pick<Services, 'db'>, input: PositionListInput): Promise<PositionList> {
  const search = input.search?.trim() ?? ''
  if (input.search !== undefined && search.length < POSITION_SEARCH_MIN) {
    throw badRequest('POSITION_SEARCH_TOO_SHORT', `type at least ${POSITION_SEARCH_MIN} characters to search positions`, { min: POSITION_SEARCH_MIN })
  }
  let q = selectPositionRows(svc.db)
  if (search) {
    const like = escapeLike(search.toLowerCase())
    q = q.where((eb) => eb.or([eb(sql<string>`lower(p.code)`, 'like', `${like}%`), eb(sql<string>`lower(p.description)`, 'like', `%${like}%`)]))
  }
  if (input.code !== undefined) q = q.where(sql<string>`lower(p.code)`, '=', input.code.trim().toLowerCase())
  if (input.parent_key) q = q.where('p.parent_id', '=', input.parent_key)
  if (input.root) q = q.where('p.parent_id', 'is', null)
  if (input.active !== undefined) q = q.where('p.active', '=', input.active)
  const rows = await q.orderBy(sql`lower(p.code)`).limit(POSITION_LIST_LIMIT + 1).execute()
  return { rows: rows.slice(0, POSITION_LIST_LIMIT), more: rows.length > POSITION_LIST_LIMIT }
}
