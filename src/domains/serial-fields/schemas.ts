import * as v from 'valibot'
import { FIELD_TYPES } from '../form-fields/schemas'

/**
 * Serial fields (SPEC 2 admin/general/serial-field, SPEC 3 Serial field): the data every serial
 * carries, built on the form-field library. A serial field is a form field (its name, type,
 * options and help text come from the library) with its own mandatory flag and order; its key
 * is the form field's key. "Unknown", "archived" and "already a serial field" are service rules
 * with their own codes.
 */
export const SerialFieldCreateInput = v.object({
  field_key: v.pipe(v.string(), v.uuid('field_key must be a form field key')),
  /** Whether a serial must have a value for it; false by default. */
  mandatory: v.optional(v.boolean()),
})
export type SerialFieldCreateInput = v.InferOutput<typeof SerialFieldCreateInput>

export const SerialFieldPatchInput = v.object({ mandatory: v.optional(v.boolean()) })
export type SerialFieldPatchInput = v.InferOutput<typeof SerialFieldPatchInput>

export const MAX_SERIAL_FIELDS = 200

/** `PUT serial-field/order`: every serial field key, in the new order. */
export const SerialFieldOrderInput = v.object({
  field_keys: v.pipe(
    v.array(v.pipe(v.string(), v.uuid('field_keys must be form field keys'))),
    v.maxLength(MAX_SERIAL_FIELDS, `at most ${MAX_SERIAL_FIELDS} serial fields`),
  ),
})
export type SerialFieldOrderInput = v.InferOutput<typeof SerialFieldOrderInput>

export const SerialFieldRow = v.object({
  /** The form field's key. */
  _key: v.string(),
  position: v.number(),
  mandatory: v.boolean(),
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  options: v.array(v.string()),
  multiple: v.boolean(),
  help_text: v.string(),
  /** False when the form field was archived in the library. */
  field_active: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type SerialFieldRow = v.InferOutput<typeof SerialFieldRow>

export const SerialFieldDeleteResult = v.object({ _key: v.string(), deleted: v.boolean() })
export type SerialFieldDeleteResult = v.InferOutput<typeof SerialFieldDeleteResult>
