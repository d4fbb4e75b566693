import * as v from 'valibot'

/**
 * Issue types (SPEC 3, 5, 9): code and name (checked in the service with their codes, the code
 * unique), close-within hours after which an open issue turns critical (0 = never), critical by
 * default, the kind of thing an issue of this type is linked to, print templates, active flag.
 */
export const ISSUE_LINK_TYPES = ['job', 'work_order', 'product', 'serial', 'position', 'generic'] as const
export type IssueLinkType = (typeof ISSUE_LINK_TYPES)[number]

export const MAX_CLOSE_WITHIN_HOURS = 100_000

export const ISSUE_TYPE_CODE_MAX = 50
export const ISSUE_TYPE_NAME_MAX = 200
const Code = v.pipe(v.string(), v.trim(), v.maxLength(ISSUE_TYPE_CODE_MAX, `an issue type code may have at most ${ISSUE_TYPE_CODE_MAX} characters`))
const Name = v.pipe(v.string(), v.trim(), v.maxLength(ISSUE_TYPE_NAME_MAX, `an issue type name may have at most ${ISSUE_TYPE_NAME_MAX} characters`))
const CloseWithin = v.pipe(
  v.number('close_within must be a number of hours'),
  v.integer('close_within must be a whole number of hours'),
  v.minValue(0, 'close_within must be >= 0 (0 = never critical)'),
  v.maxValue(MAX_CLOSE_WITHIN_HOURS, `close_within may be at most ${MAX_CLOSE_WITHIN_HOURS} hours`),
)
const TemplateKeys = v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))), v.maxLength(50))

export const IssueTypeCreateInput = v.object({
  code: Code,
  name: Name,
  close_within: v.optional(CloseWithin),
  critical: v.optional(v.boolean()),
  link_type: v.optional(v.picklist(ISSUE_LINK_TYPES, `link_type must be one of ${ISSUE_LINK_TYPES.join(', ')}`)),
  print_templates: v.optional(TemplateKeys),
  active: v.optional(v.boolean()),
})
export type IssueTypeCreateInput = v.InferOutput<typeof IssueTypeCreateInput>

export const IssueTypePatchInput = v.partial(IssueTypeCreateInput)
export type IssueTypePatchInput = v.InferOutput<typeof IssueTypePatchInput>

export const IssueTypeRow = v.object({
  _key: v.string(),
  code: v.string(),
  name: v.string(),
  /** Hours an issue may stay open before it turns critical; 0 = never. */
  close_within: v.number(),
  critical: v.boolean(),
  link_type: v.picklist(ISSUE_LINK_TYPES),
  print_templates: v.array(v.string()),
  active: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type IssueTypeRow = v.InferOutput<typeof IssueTypeRow>

export const ISSUE_TYPE_SORTS = ['code', 'name', 'close_within', 'updated_at'] as const
export const IssueTypeListInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200))),
  active_only: v.optional(v.boolean()),
  inactive_only: v.optional(v.boolean()),
  sort: v.optional(v.picklist(ISSUE_TYPE_SORTS)),
  desc: v.optional(v.boolean()),
})
export type IssueTypeListInput = v.InferOutput<typeof IssueTypeListInput>
