import type * as v from 'valibot'
import { formatScope, HOME_PAGES, hasScope, parseScope } from '../../../src/auth/scopes'
import type { UserCreateInput, UserPatchInput, UserRow } from '../../../src/domains/users/schemas'
import { hashPassword } from '../../auth/password'
import { temporaryPassword } from '../../auth/secrets'
import { endUserSessions } from '../../auth/sessions'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, forbidden, isUniqueViolation, notFound, unprocessable } from '../../errors'
import { inspectImage } from '../../storage/images'
import { appendEvent } from '../events/service'
import { preferencesOf } from '../session/service'
import { selectUserRows } from './queries'

type CreateInput = v.InferOutput<typeof UserCreateInput>
type PatchInput = v.InferOutput<typeof UserPatchInput>

const isAdmin = (actor: Actor) => hasScope(actor.scope, 'admin')

/** SPEC 5: a username is required and at least one permission must be checked. */
function checkedScope(scope: string): string {
  const words = parseScope(scope)
  if (words.length === 0) throw badRequest('PERMISSION_REQUIRED', 'check at least a permission')
  return formatScope(words)
}

function checkedUsername(username: string): string {
  const trimmed = username.trim()
  if (!trimmed) throw badRequest('USERNAME_REQUIRED', 'username required')
  if (!/^[\p{L}\p{N}._@-]+$/u.test(trimmed)) {
    throw badRequest('INVALID_INPUT', 'username may hold letters, digits and . _ @ - only')
  }
  return trimmed
}

const usernameTaken = () => conflict('USERNAME_TAKEN', 'username already in use')

async function assertUsernameFree(db: Db, username: string, exceptId?: string) {
  let q = db.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw usernameTaken()
}

export async function getUser(svc: Services, key: string): Promise<UserRow> {
  const row = await selectUserRows(svc.db, svc.clock.now()).where('u.id', '=', key).executeTakeFirst()
  if (!row) throw notFound('WRONG_USER_ID', 'wrong user ID')
  return row
}

export async function requireUserId(db: Db, key: string): Promise<string> {
  const row = await db.selectFrom('users').select('id').where('id', '=', key).executeTakeFirst()
  if (!row) throw notFound('WRONG_USER_ID', 'wrong user ID')
  return row.id
}

export async function listUsers(svc: Services, opts: { activeOnly?: boolean; scope?: string }): Promise<UserRow[]> {
  let q = selectUserRows(svc.db, svc.clock.now()).orderBy('u.username')
  if (opts.activeOnly) q = q.where('u.archived_at', 'is', null).where('u.enabled', '=', true)
  if (opts.scope) q = q.where('u.scope', '~', `(^|\\s)${opts.scope}(\\s|$)`)
  return q.execute()
}

/** Creates a user with a temporary password, returned once and to be replaced at first sign-in. */
export async function createUser(svc: Services, actor: Actor, input: CreateInput): Promise<{ _key: string; temp_psw: string }> {
  const username = checkedUsername(input.username)
  const scope = checkedScope(input.scope)
  const tempPassword = temporaryPassword()
  const passwordHash = await hashPassword(tempPassword)
  const now = svc.clock.now()
  try {
    return await svc.db.transaction().execute(async (trx) => {
      await assertUsernameFree(trx, username)
      const { id } = await trx
        .insertInto('users')
        .values({
          username,
          name: input.name ?? '',
          surname: input.surname ?? '',
          email: input.email || null,
          department_id: input.department_key ?? null,
          hourly_cost: input.hourly_cost ?? null,
          scope,
          password_hash: passwordHash,
          must_change_password: true,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'USER_CREATED', subject_type: 'user', subject_key: id, data: { username, scope } }, now)
      return { _key: id, temp_psw: tempPassword }
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw usernameTaken()
    throw e
  }
}

/**
 * `PATCH user/{key}`: anyone may change their own preferences; everything else is for admins.
 * Disabling a user ends their sessions at once.
 */
export async function patchUser(svc: Services, actor: Actor, key: string, patch: PatchInput): Promise<UserRow> {
  const { preferences, ...fields } = patch
  const changesFields = Object.values(fields).some((x) => x !== undefined)
  if (!isAdmin(actor) && (key !== actor.userId || changesFields)) throw forbidden('NOT_AUTHORISED', 'not authorised')
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!user) throw notFound('WRONG_USER_ID', 'wrong user ID')
      const set: Record<string, unknown> = {}
      if (fields.username !== undefined) {
        set.username = checkedUsername(fields.username)
        await assertUsernameFree(trx, set.username as string, key)
      }
      if (fields.scope !== undefined) set.scope = checkedScope(fields.scope)
      for (const f of ['name', 'surname', 'hourly_cost', 'enabled'] as const) if (fields[f] !== undefined) set[f] = fields[f]
      if (fields.email !== undefined) set.email = fields.email || null
      if (fields.department_key !== undefined) set.department_id = fields.department_key
      if (preferences) {
        const merged = { ...preferencesOf(user), ...preferences }
        const scope = (set.scope as string | undefined) ?? user.scope
        const home = HOME_PAGES.find((h) => h.name === merged.home_page)
        if (merged.home_page && !(home && hasScope(scope, home.scope))) {
          throw unprocessable('NO_HOMEPAGE', 'this home page is not available with your permissions')
        }
        set.preferences = JSON.stringify(merged)
      }
      if (Object.keys(set).length === 0) return
      await trx.updateTable('users').set(set).where('id', '=', key).execute()
      if (set.enabled === false) await endUserSessions(trx, key, now)
      const changed = Object.keys(set).filter((k) => k !== 'password_hash')
      await appendEvent(trx, actor, { event_type: 'USER_UPDATED', subject_type: 'user', subject_key: key, data: { changed } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw usernameTaken()
    throw e
  }
  return getUser(svc, key)
}

/** `PUT user/{key}/image`: own image or, for admins, anyone's. The bytes must decode as an image. */
export async function setUserImage(svc: Services, actor: Actor, key: string, file: File): Promise<UserRow> {
  if (!isAdmin(actor) && key !== actor.userId) throw forbidden('NOT_AUTHORISED', 'not authorised')
  await requireUserId(svc.db, key)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const image = inspectImage(bytes)
  const storageKey = `users/${key}/image-${Date.now()}.${image.type}`
  await svc.files.put(storageKey, bytes)
  const now = svc.clock.now()
  const previous = await svc.db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('users').select('image_path').where('id', '=', key).forUpdate().executeTakeFirstOrThrow()
    await trx.updateTable('users').set({ image_path: storageKey }).where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: 'USER_IMAGE_CHANGED', subject_type: 'user', subject_key: key }, now)
    return old.image_path
  })
  if (previous) await svc.files.delete(previous)
  return getUser(svc, key)
}
