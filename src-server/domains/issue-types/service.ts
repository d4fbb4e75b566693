import { sql } from 'kysely'
import type {
  IssueTypeCreateInput,
  IssueTypeListInput,
  IssueTypePatchInput,
  IssueTypeRow,
} from '../../../src/domains/issue-types/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { containsPattern } from '../../db/like'
import { issueCodesOfType, selectIssueTypeRows } from './queries'

const typeNotFound = () => notFound('NOT_FOUND', 'issue type not found')
const codeTaken = () => conflict('ISSUE_TYPE_CODE_TAKEN', 'issue type code already in use')

/** SPEC 5: an issue type needs a code and a name. */
function checkedCode(code: string) {
  const trimmed = code.trim()
  if (!trimmed) throw badRequest('ISSUE_TYPE_CODE_REQUIRED', 'issue type code required')
  return trimmed
}
function checkedName(name: string) {
  const trimmed = name.trim()
  if (!trimmed) throw badRequest('ISSUE_TYPE_NAME_REQUIRED', 'issue type name required')
  return trimmed
}

async function assertCodeFree(db: Db, code: string, exceptId?: string) {
  let q = db.selectFrom('issue_types').select('id').where(sql<string>`lower(code)`, '=', code.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw codeTaken()
}

export async function listIssueTypes(svc: Services, opts: IssueTypeListInput = {}): Promise<IssueTypeRow[]> {
  let q = selectIssueTypeRows(svc.db)
  if (opts.active_only) q = q.where('t.active', '=', true)
  if (opts.inactive_only) q = q.where('t.active', '=', false)
  if (opts.search?.trim()) {
    const p = containsPattern(opts.search)
    q = q.where((eb) => eb.or([eb('t.code', 'ilike', p), eb('t.name', 'ilike', p)]))
  }
  const dir = opts.desc ? 'desc' : 'asc'
  if (opts.sort === 'name') q = q.orderBy(sql`lower(t.name)`, dir)
  else if (opts.sort === 'close_within') q = q.orderBy('t.close_within_hours', dir)
  else if (opts.sort === 'updated_at') q = q.orderBy('t.updated_at', dir)
  return q.orderBy(sql`lower(t.code)`, !opts.sort || opts.sort === 'code' ? dir : 'asc').execute()
}

export async function getIssueType(svc: Services, key: string): Promise<IssueTypeRow> {
  const row = isUuid(key) ? await selectIssueTypeRows(svc.db).where('t.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw typeNotFound()
  return row
}

/** `POST issue-type`: code (unique, any case) and name required; close-within hours >= 0 (0 = never critical). */
export async function createIssueType(svc: Services, actor: Actor, input: IssueTypeCreateInput): Promise<IssueTypeRow> {
  const code = checkedCode(input.code)
  const name = checkedName(input.name)
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, code)
      const { id } = await trx
        .insertInto('issue_types')
        .values({
          code,
          name,
          close_within_hours: input.close_within ?? 0,
          critical: input.critical ?? false,
          link_type: input.link_type ?? 'generic',
          print_templates: JSON.stringify([...new Set(input.print_templates ?? [])]),
          active: input.active ?? true,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'ISSUE_TYPE_CREATED', subject_type: 'issue_type', subject_key: id, data: { code, name } }, now)
      return id
    })
    return getIssueType(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
}

/** `PATCH issue-type/{key}`: any subset; an event lists what changed. */
export async function patchIssueType(svc: Services, actor: Actor, key: string, patch: IssueTypePatchInput): Promise<IssueTypeRow> {
  if (!isUuid(key)) throw typeNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('issue_types').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw typeNotFound()
      const next = {
        code: patch.code === undefined ? old.code : checkedCode(patch.code),
        name: patch.name === undefined ? old.name : checkedName(patch.name),
        close_within_hours: patch.close_within ?? old.close_within_hours,
        critical: patch.critical ?? old.critical,
        link_type: patch.link_type ?? old.link_type,
        print_templates: patch.print_templates ? [...new Set(patch.print_templates)] : old.print_templates,
        active: patch.active ?? old.active,
      }
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(old[k]))
      if (changed.length === 0) return
      if (changed.includes('code') && next.code.toLowerCase() !== old.code.toLowerCase()) await assertCodeFree(trx, next.code, key)
      await trx
        .updateTable('issue_types')
        .set({ ...next, print_templates: JSON.stringify(next.print_templates), updated_at: now })
        .where('id', '=', key)
        .execute()
      // The API calls close_within_hours close_within: the event names it as the API does.
      const changes = Object.entries(changesOf(old, next, changed)).map(([k, c]) => [k === 'close_within_hours' ? 'close_within' : k, c])
      await appendEvent(
        trx,
        actor,
        { event_type: 'ISSUE_TYPE_UPDATED', subject_type: 'issue_type', subject_key: key, data: editData(Object.fromEntries(changes)) },
        now,
      )
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
  return getIssueType(svc, key)
}

/**
 * `DELETE issue-type/{key}`. Issues refer to their type with ON DELETE RESTRICT: a type in use
 * cannot go, and the answer lists the issues using it (409 ISSUE_TYPE_IN_USE, detail.issues).
 */
export async function deleteIssueType(svc: Services, actor: Actor, key: string): Promise<{ _key: string }> {
  if (!isUuid(key)) throw typeNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('issue_types').select(['code', 'name']).where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw typeNotFound()
      await trx.deleteFrom('issue_types').where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'ISSUE_TYPE_DELETED', subject_type: 'issue_type', subject_key: key, data: { code: old.code, name: old.name } }, now)
    })
  } catch (e) {
    if (!isForeignKeyViolation(e)) throw e
    // The failed transaction is gone; ask again outside it which issues hold the type.
    const issues = await issueCodesOfType(svc.db, key)
    const list = issues.length ? `: ${issues.join(', ')}` : ''
    throw conflict('ISSUE_TYPE_IN_USE', `the issue type is in use and cannot be deleted${list ? ` (issues${list})` : ''}`, { issues })
  }
  return { _key: key }
}
