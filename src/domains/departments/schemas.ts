import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'

export const DEPARTMENT_CODE_MAX = 30
export const DEPARTMENT_NAME_MAX = 100

const Code = v.pipe(v.string(), StorableText, v.trim(), v.nonEmpty('department code required'), v.maxLength(DEPARTMENT_CODE_MAX))
const Name = v.pipe(v.string(), StorableText, v.trim(), v.nonEmpty('department name required'), v.maxLength(DEPARTMENT_NAME_MAX))

/** A department: a short code, unique ignoring case (e.g. ASM), and a name (e.g. Assemblaggio). */
export const DepartmentInput = v.object({ code: Code, name: Name })
export const DepartmentPatch = v.object({ code: v.optional(Code), name: v.optional(Name) })

export const DepartmentRow = v.object({
  _key: v.string(),
  code: v.string(),
  name: v.string(),
  created_at: v.number(),
  /** Users (archived ones included) assigned to it: a department in use cannot be deleted. */
  user_count: v.number(),
})
export type DepartmentRow = v.InferOutput<typeof DepartmentRow>
