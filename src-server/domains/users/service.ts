import type * as v from 'valibot'
import { HOME_PAGES, hasScope, type Scope } from '../../../src/auth/scopes'
import type { UserCreateInput, UserPage, UserPageInput, UserPatchInput, UserRow, UserSort } from '../../../src/domains/users/schemas'
import { hashPassword } from '../../auth/password'
import { checkedScope } from '../../auth/permission-words'
import { temporaryPassword } from '../../auth/secrets'
import { endUserSessions } from '../../auth/sessions'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import type { User } from '../../db/schema'
import { badRequest, conflict, forbidden, isForeignKeyViolation, isUniqueViolation, notFound, unprocessable } from '../../errors'
import { inspectImage } from '../../storage/images'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { preferencesOf } from '../session/service'
import { countUsers, orderedUserRows, selectUserRows } from './queries'
import { invalidField } from '../../input-issues'

type CreateInput = v.InferOutput<typeof UserCreateInput>
type PatchInput = v.InferOutput<typeof UserPatchInput>

const isAdmin = (actor: Actor) => hasScope(actor.scope, 'admin')

function checkedUsername(username: string): string {
  const trimmed = username.trim()
  if (!trimmed) throw badRequest('USERNAME_REQUIRED', 'username required')
  if (!/^[\p{L}\p{N}._@-]+$/u.test(trimmed)) {
    throw invalidField({ path: 'username', kind: 'bad_characters', message: 'may hold letters, digits and . _ @ - only' })
  }
  return trimmed
}

const usernameTaken = () => conflict('USERNAME_TAKEN', 'username already in use')
const usernameArchived = (userKey: string) =>
  conflict('USERNAME_ARCHIVED', `username belongs to an archived user: restore that user (POST user/${userKey}/restore) instead`, { user_key: userKey })
const wrongUserId = () => notFound('WRONG_USER_ID', 'wrong user ID')
const badgeTaken = () => conflict('BADGE_TAKEN', 'this badge belongs to another user')
/** A unique violation names the badge's index or else the username. */
const takenError = (e: unknown) => (isUniqueViolation(e, 'users_badge') ? badgeTaken() : usernameTaken())

/** User keys are UUIDs: anything else is a wrong user ID, never a database error. */
function checkedKey(key: string): string {
  if (!isUuid(key)) throw wrongUserId()
  return key
}

/** SPEC 5: operator (and any user's) hourly cost must be >= 0. */
function checkedHourlyCost(cost: number | null | undefined) {
  if (typeof cost === 'number' && cost < 0) throw badRequest('HOURLY_COST_NEGATIVE', 'hourly cost must be >= 0')
  return cost
}

/** A department the user belongs to must exist (or be none). */
async function checkedDepartment(db: Db, key: string | null | undefined) {
  if (!key) return key
  const found = await db.selectFrom('departments').select('id').where('id', '=', key).executeTakeFirst()
  if (!found) throw wrongDepartment()
  return key
}
const wrongDepartment = () => unprocessable('WRONG_DEPARTMENT_KEY', 'wrong department key')

/** Locks the user row for the rest of the transaction. */
async function lockUser(trx: Db, key: string) {
  const user = await trx.selectFrom('users').selectAll().where('id', '=', checkedKey(key)).forUpdate().executeTakeFirst()
  if (!user) throw wrongUserId()
  return user
}

/** SPEC 5 unique usernames; one kept by an archived user says so, since that user can be restored. */
async function assertUsernameFree(db: Db, username: string, exceptId?: string) {
  let q = db.selectFrom('users').select(['id', 'archived_at']).where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
  if (exceptId) q = q.where('id', '!=', exceptId)
  const holder = await q.executeTakeFirst()
  if (holder) throw holder.archived_at ? usernameArchived(holder.id) : usernameTaken()
}

export async function getUser(svc: Services, key: string): Promise<UserRow> {
  const row = await selectUserRows(svc.db, svc.clock.now()).where('u.id', '=', checkedKey(key)).executeTakeFirst()
  if (!row) throw wrongUserId()
  return row
}

export async function requireUserId(db: Db, key: string): Promise<string> {
  const row = await db.selectFrom('users').select('id').where('id', '=', checkedKey(key)).executeTakeFirst()
  if (!row) throw wrongUserId()
  return row.id
}

export type ListOptions = {
  /** SPEC `GET user?active_only=`: only users who may sign in (not archived and enabled). */
  activeOnly?: boolean
  search?: string
  archived?: boolean
  enabled?: boolean
  scope?: Scope
  sort?: UserSort
  dir?: 'asc' | 'desc'
}

/**
 * Every matching user, no paging (`GET user`, the operator list with `scope=operator`).
 * `activeOnly` narrows to users who can sign in; the other filters combine with it.
 */
export async function listUsers(svc: Services, opts: ListOptions): Promise<UserRow[]> {
  const { activeOnly, sort, dir, ...filters } = opts
  if (activeOnly) {
    if (filters.archived === true || filters.enabled === false) return []
    filters.archived = false
    filters.enabled = true
  }
  return orderedUserRows(svc.db, svc.clock.now(), filters, { sort, dir }).execute()
}

export const DEFAULT_PAGE_SIZE = 25

/** One page of the user library: filtered, sorted, with the total number of matching users. */
export async function pageUsers(svc: Services, input: UserPageInput): Promise<UserPage> {
  const { page = 1, page_size = DEFAULT_PAGE_SIZE, sort, dir, ...filters } = input
  const [rows, total] = await Promise.all([
    orderedUserRows(svc.db, svc.clock.now(), filters, { sort, dir })
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    countUsers(svc.db, filters),
  ])
  return { rows, total }
}

/** Creates a user with a temporary password, returned once and to be replaced at first sign-in. */
export async function createUser(svc: Services, actor: Actor, input: CreateInput): Promise<{ _key: string; temp_psw: string }> {
  const username = checkedUsername(input.username)
  const scope = checkedScope(input.scope)
  checkedHourlyCost(input.hourly_cost)
  const tempPassword = temporaryPassword()
  const passwordHash = await hashPassword(tempPassword)
  const now = svc.clock.now()
  try {
    return await svc.db.transaction().execute(async (trx) => {
      await assertUsernameFree(trx, username)
      await checkedDepartment(trx, input.department_key)
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
          badge: input.badge || null,
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
    if (isUniqueViolation(e)) throw takenError(e)
    if (isForeignKeyViolation(e)) throw wrongDepartment()
    throw e
  }
}

const EDITABLE = ['username', 'name', 'surname', 'email', 'department_key', 'hourly_cost', 'scope', 'enabled', 'badge'] as const
const COLUMN = { department_key: 'department_id' } as const
const columnOf = (f: (typeof EDITABLE)[number]) => (f in COLUMN ? COLUMN[f as keyof typeof COLUMN] : f) as keyof User

/**
 * `PATCH user/{key}`: only the fields sent change. Anyone may change their own preferences;
 * everything else is for admins. Disabling a user ends their sessions at once. An admin cannot
 * disable themselves or take away their own admin permission.
 */
export async function patchUser(svc: Services, actor: Actor, key: string, patch: PatchInput): Promise<UserRow> {
  const { preferences, ...fields } = patch
  const changesFields = Object.values(fields).some((x) => x !== undefined)
  // PATCH answers before a temporary password is replaced, but then only for the own preferences.
  if (actor.mustChangePassword && (key !== actor.userId || changesFields)) {
    throw forbidden('PASSWORD_CHANGE_REQUIRED', 'change your temporary password first')
  }
  if (!isAdmin(actor) && (key !== actor.userId || changesFields)) throw forbidden('NOT_AUTHORISED', 'not authorised')
  checkedKey(key)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const user = await lockUser(trx, key)
      const next: Partial<Record<(typeof EDITABLE)[number], unknown>> = {}
      if (fields.username !== undefined) {
        next.username = checkedUsername(fields.username)
        await assertUsernameFree(trx, next.username as string, key)
      }
      if (fields.scope !== undefined) next.scope = checkedScope(fields.scope)
      if (fields.hourly_cost !== undefined) next.hourly_cost = checkedHourlyCost(fields.hourly_cost)
      if (fields.department_key !== undefined) next.department_key = await checkedDepartment(trx, fields.department_key)
      for (const f of ['name', 'surname', 'enabled'] as const) if (fields[f] !== undefined) next[f] = fields[f]
      if (fields.email !== undefined) next.email = fields.email || null
      if (fields.badge !== undefined) next.badge = fields.badge || null
      if (key === actor.userId) {
        if (next.enabled === false && user.enabled) throw unprocessable('CANNOT_DISABLE_SELF', 'you cannot disable yourself')
        if (next.scope !== undefined && hasScope(user.scope, 'admin') && !hasScope(next.scope as string, 'admin')) {
          throw unprocessable('CANNOT_REMOVE_OWN_ADMIN', 'you cannot remove your own admin permission')
        }
      }
      // What really changes, with its old and new value (the event says what changed).
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      const set: Record<string, unknown> = {}
      for (const f of EDITABLE) {
        if (!(f in next)) continue
        const from = user[columnOf(f)]
        if (from === next[f]) continue
        changes[f] = { from, to: next[f] }
        set[columnOf(f)] = next[f]
      }
      if (preferences) {
        const merged = { ...preferencesOf(user), ...preferences }
        const scope = (next.scope as string | undefined) ?? user.scope
        const home = HOME_PAGES.find((h) => h.name === merged.home_page)
        if (merged.home_page && !(home && hasScope(scope, home.scope))) {
          throw unprocessable('NO_HOMEPAGE', 'this home page is not available with your permissions')
        }
        set.preferences = JSON.stringify(merged)
      }
      if (Object.keys(set).length === 0) return
      await trx.updateTable('users').set(set).where('id', '=', key).execute()
      if (set.enabled === false) await endUserSessions(trx, key, now)
      const changed = [...Object.keys(changes), ...(preferences ? ['preferences'] : [])]
      await appendEvent(trx, actor, { event_type: 'USER_UPDATED', subject_type: 'user', subject_key: key, data: { changed, changes } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw takenError(e)
    if (isForeignKeyViolation(e)) throw wrongDepartment()
    throw e
  }
  return getUser(svc, key)
}

/**
 * Delete = archive (SPEC 4): the user disappears from lists and cannot sign in, their sessions
 * end, and every record that names them stays. Archiving an archived user changes nothing.
 */
export async function archiveUser(svc: Services, actor: Actor, key: string): Promise<UserRow> {
  if (checkedKey(key) === actor.userId) throw unprocessable('CANNOT_ARCHIVE_SELF', 'you cannot delete yourself')
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, key)
    if (user.archived_at) return
    await trx.updateTable('users').set({ archived_at: now }).where('id', '=', key).execute()
    await endUserSessions(trx, key, now)
    await appendEvent(trx, actor, { event_type: 'USER_ARCHIVED', subject_type: 'user', subject_key: key, data: { username: user.username } }, now)
  })
  return getUser(svc, key)
}

/** Brings an archived user back to the lists; they may sign in again if enabled. */
export async function restoreUser(svc: Services, actor: Actor, key: string): Promise<UserRow> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, key)
    if (!user.archived_at) return
    await trx.updateTable('users').set({ archived_at: null }).where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: 'USER_RESTORED', subject_type: 'user', subject_key: key, data: { username: user.username } }, now)
  })
  return getUser(svc, key)
}

/**
 * SPEC 6: an admin resets a password. The new temporary password is returned once, must be
 * replaced at the next sign-in, and the user's sessions end. Your own password you change instead.
 * The signing PIN is cleared too: a reset means the credentials are lost or known to someone else.
 */
export async function resetPassword(svc: Services, actor: Actor, key: string): Promise<{ _key: string; temp_psw: string }> {
  if (checkedKey(key) === actor.userId) {
    throw unprocessable('CANNOT_RESET_OWN_PASSWORD', 'you cannot reset your own password: change it instead')
  }
  const tempPassword = temporaryPassword()
  const passwordHash = await hashPassword(tempPassword)
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockUser(trx, key)
    await trx.updateTable('users').set({ password_hash: passwordHash, must_change_password: true, pin_hash: null }).where('id', '=', key).execute()
    await endUserSessions(trx, key, now)
    await appendEvent(trx, actor, { event_type: 'USER_PASSWORD_RESET', subject_type: 'user', subject_key: key }, now)
  })
  return { _key: key, temp_psw: tempPassword }
}

/** An admin clears a user's signing PIN (forgotten, or seen by someone): they sign with the password until they set a new one. */
export async function clearPin(svc: Services, actor: Actor, key: string): Promise<UserRow> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, key)
    if (user.pin_hash === null) return
    await trx.updateTable('users').set({ pin_hash: null }).where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: 'USER_PIN_CLEARED', subject_type: 'user', subject_key: key }, now)
  })
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
    await appendEvent(trx, actor, { event_type: 'USER_IMAGE_CHANGED', subject_type: 'user', subject_key: key, data: editData(changesOf(old, { image_path: storageKey })) }, now)
    return old.image_path
  })
  if (previous && previous !== storageKey) await svc.files.delete(previous)
  return getUser(svc, key)
}
