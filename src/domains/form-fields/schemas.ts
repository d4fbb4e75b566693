import * as v from 'valibot'

/**
 * Form fields (custom fields, SPEC 3): the library of fields that form steps, product metadata
 * and later serial data are made of. "Name required/in use", "choice needs options" and "a field
 * in use cannot change type" are checked in the service with their own codes.
 */
export const FIELD_TYPES = ['text', 'number', 'boolean', 'ternary', 'choice', 'date', 'time', 'files'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** Types holding one answer by nature (yes/no, yes/no/NA): no "multiple values" flag. */
export const SINGLE_VALUE_TYPES: readonly FieldType[] = ['boolean', 'ternary']

/** A ternary answer: true, false or not applicable. */
export const TERNARY_VALUES = ['true', 'false', 'na'] as const

export const MAX_FIELD_OPTIONS = 200

const FieldName = v.pipe(v.string(), v.trim(), v.maxLength(200, 'a field name may have at most 200 characters'))
const Options = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.maxLength(200, 'an option may have at most 200 characters'))),
  v.maxLength(MAX_FIELD_OPTIONS, `at most ${MAX_FIELD_OPTIONS} options`),
)
const HelpText = v.pipe(v.string(), v.maxLength(2000, 'the help text may have at most 2000 characters'))

export const FieldCreateInput = v.object({
  name: FieldName,
  type: v.picklist(FIELD_TYPES, `type must be one of ${FIELD_TYPES.join(', ')}`),
  /** Choice fields only; ignored for other types. */
  options: v.optional(Options),
  multiple: v.optional(v.boolean()),
  mandatory: v.optional(v.boolean()),
  help_text: v.optional(HelpText),
})
export type FieldCreateInput = v.InferOutput<typeof FieldCreateInput>

/** Any subset; `active: false` archives the field (hidden from pickers), `true` restores it. */
export const FieldPatchInput = v.object({
  ...v.partial(FieldCreateInput).entries,
  active: v.optional(v.boolean()),
})
export type FieldPatchInput = v.InferOutput<typeof FieldPatchInput>

export const FieldRow = v.object({
  _key: v.string(),
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  options: v.array(v.string()),
  multiple: v.boolean(),
  mandatory: v.boolean(),
  help_text: v.string(),
  active: v.boolean(),
  /** Referenced by an operation's default steps (later also product steps and metadata): its type is fixed. */
  in_use: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type FieldRow = v.InferOutput<typeof FieldRow>

export const FIELD_SORTS = ['name', 'type', 'updated_at'] as const
export const FieldListInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** Default: every field, archived ones included (forms already filled still need them). */
  active_only: v.optional(v.boolean()),
  archived_only: v.optional(v.boolean()),
  sort: v.optional(v.picklist(FIELD_SORTS)),
  desc: v.optional(v.boolean()),
})
export type FieldListInput = v.InferOutput<typeof FieldListInput>

/** `DELETE field/{key}`: an unused field is deleted, a field in use is archived instead. */
export const FieldDeleteResult = v.object({ _key: v.string(), deleted: v.boolean(), archived: v.boolean() })
export type FieldDeleteResult = v.InferOutput<typeof FieldDeleteResult>
