/**
 * Why an input value was refused, as the server answers it (INVALID_INPUT `detail.issues`, tRPC
 * `data.extra.issues`) and as the client's own field checks say it: the field's path
 * (`notes`, `phases.0.name`), a kind and, for limits, the limit. The client turns each into a
 * translated message naming the field; `message` is the English text for scripts.
 */
export const INPUT_ISSUE_KINDS = [
  /** Missing, or empty where a value is needed. */
  'required',
  /** A value of the wrong type (text where a number belongs ...). */
  'type',
  'min_length',
  'max_length',
  /** Lists: fewer or more elements than allowed. */
  'min_items',
  'max_items',
  'min_value',
  'max_value',
  'integer',
  /** Not one of the allowed values. */
  'choice',
  /** Text of the wrong shape (a key, an e-mail, a date ...). */
  'format',
  /** A key the object does not take. */
  'unknown_key',
  // Typed or scanned number text (src/i18n/number-text.ts).
  'not_a_number',
  'two_separators',
  'too_many_digits',
  /** Numbers: more decimals than `limit` (a value is refused, never rounded). */
  'max_decimals',
  /** A list holding the same value (or _key) twice. */
  'duplicate',
  /** A list holding an empty element. */
  'empty_item',
  /** Text holding characters that cannot be stored or are not allowed there. */
  'bad_characters',
  /** An uploaded file of 0 bytes. */
  'empty_file',
  /** A value the field takes elsewhere but not in this context. */
  'not_allowed',
  /** A date more than `limit` years ahead. */
  'max_years',
  /** Anything else; `message` says what. */
  'invalid',
] as const
export type InputIssueKind = (typeof INPUT_ISSUE_KINDS)[number]

export type InputIssue = {
  /** Dot path of the field (`notes`, `phases.0.name`); '' for the input as a whole. */
  path: string
  kind: InputIssueKind
  /** The limit broken by min/max kinds. */
  limit?: number
  message: string
}
