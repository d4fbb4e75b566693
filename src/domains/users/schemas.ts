import * as v from 'valibot'
import { PreferencesPatch } from '../session/schemas'

const OptionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)))

/** Field rules with SPEC messages (username required, a permission needed) live in the service. */
export const UserCreateInput = v.object({
  username: v.pipe(v.string(), v.trim(), v.maxLength(100)),
  name: OptionalText(100),
  surname: OptionalText(100),
  email: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200)))),
  department_key: v.optional(v.nullable(v.pipe(v.string(), v.uuid('wrong department key')))),
  hourly_cost: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0, 'hourly cost must be >= 0'), v.maxValue(1_000_000)))),
  scope: v.pipe(v.string(), v.maxLength(200)),
})

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
  hourly_cost: v.nullable(v.number()),
  scope: v.string(),
  enabled: v.boolean(),
  active: v.boolean(),
  logged_in: v.boolean(),
  created_at: v.number(),
  last_login: v.nullable(v.number()),
  image_url: v.nullable(v.string()),
})
export type UserRow = v.InferOutput<typeof UserRow>
