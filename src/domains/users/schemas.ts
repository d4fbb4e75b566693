import * as v from 'valibot'
import { SCOPES } from '../../auth/scopes'
import { PreferencesPatch } from '../session/schemas'
import { BADGE_MAX } from '../signatures/schemas'

export const USERNAME_MAX = 100
export const USER_NAME_MAX = 100
export const EMAIL_MAX = 200
export const HOURLY_COST_MAX = 1_000_000

const OptionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)))

/** Loose on purpose: an address is checked for shape only (something@something.tld); empty means none. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const Email = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(EMAIL_MAX),
  v.check((s) => s === '' || EMAIL_PATTERN.test(s), 'invalid email address'),
)

/**
 * Field rules with SPEC messages (username required, a permission needed, hourly cost >= 0)
 * live in the service with their own error codes, so these schemas stay lenient on them.
 */
export const UserCreateInput = v.object({
  username: v.pipe(v.string(), v.trim(), v.maxLength(USERNAME_MAX)),
  name: OptionalText(USER_NAME_MAX),
  surname: OptionalText(USER_NAME_MAX),
  email: v.optional(v.nullable(Email)),
  department_key: v.optional(v.nullable(v.pipe(v.string(), v.uuid('wrong department key')))),
  hourly_cost: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.maxValue(HOURLY_COST_MAX)))),
  scope: v.pipe(v.string(), v.maxLength(200)),
  /** What the user's badge scanner types (identifies a second signer with their PIN); empty or null: none. Unique. */
  badge: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(BADGE_MAX), v.regex(/^\S*$/, 'a badge code has no spaces')))),
})

/** PATCH semantics: only the fields sent change. */
export const UserPatchInput = v.object({
  ...v.partial(UserCreateInput).entries,
  enabled: v.optional(v.boolean()),
  preferences: v.optional(PreferencesPatch),
})

export const UserRow = v.object({
  _key: v.string(),
  username: v.string(),
  name: v.string(),
  surname: v.string(),
  email: v.nullable(v.string()),
  department_key: v.nullable(v.string()),
  department_name: v.nullable(v.string()),
  hourly_cost: v.nullable(v.number()),
  scope: v.string(),
  enabled: v.boolean(),
  /** False once archived (deleted): hidden from lists, kept for traceability and reports. */
  active: v.boolean(),
  logged_in: v.boolean(),
  created_at: v.number(),
  last_login: v.nullable(v.number()),
  image_url: v.nullable(v.string()),
  badge: v.nullable(v.string()),
  /** Whether a personal signing PIN is set (never the PIN nor its hash). */
  has_pin: v.boolean(),
})
export type UserRow = v.InferOutput<typeof UserRow>

/** Columns the user library can be sorted by. */
export const USER_SORTS = ['username', 'name', 'surname', 'last_login', 'created_at'] as const
export type UserSort = (typeof USER_SORTS)[number]
export const SORT_DIRECTIONS = ['asc', 'desc'] as const
export const USER_PAGE_SIZE_MAX = 100

/** Filters shared by the plain list and the paged table; absent = no filter. */
const listFilters = {
  /** Words matched (ILIKE) against username, name, surname and email; every word must match. */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  sort: v.optional(v.picklist(USER_SORTS)),
  dir: v.optional(v.picklist(SORT_DIRECTIONS)),
  /** true: archived users only; false: not archived only. */
  archived: v.optional(v.boolean()),
  enabled: v.optional(v.boolean()),
  /** Users whose scope holds this permission word. */
  scope: v.optional(v.picklist(SCOPES)),
}

/** `users.list` / `GET user`: every matching user (no paging); `active_only` defaults to true unless `archived` or `enabled` is given. */
export const UserListInput = v.object({ active_only: v.optional(v.boolean()), ...listFilters })

/** `users.page` / `GET user-page`: one page of the user library table. */
export const UserPageInput = v.object({
  ...listFilters,
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(USER_PAGE_SIZE_MAX))),
})
export type UserPageInput = v.InferOutput<typeof UserPageInput>

export const UserPage = v.object({ rows: v.array(UserRow), total: v.number() })
export type UserPage = v.InferOutput<typeof UserPage>

/** A new user's or a reset temporary password: shown once, to be replaced at the next sign-in. */
export const TempPassword = v.object({ _key: v.string(), temp_psw: v.string() })
