import * as v from 'valibot'

/** Query-string booleans: `true`/`false`/`1`/`0`. */
export const QueryBool = v.pipe(
  v.picklist(['true', 'false', '1', '0'], 'expected true or false'),
  v.transform((x) => x === 'true' || x === '1'),
)

/** Query-string whole numbers within bounds. */
export const QueryInt = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^-?\d+$/, 'expected a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max))

export const Key = v.pipe(v.string(), v.minLength(1), v.maxLength(100))
export const UuidKey = (message = 'wrong key') => v.pipe(v.string(), v.uuid(message))

/**
 * Text PostgreSQL can store: no NUL characters and no lone UTF-16 surrogates (both would make
 * the database refuse the row with a 5xx). Use inside a pipe: `v.pipe(v.string(), StorableText, ...)`.
 */
export const StorableText = v.check(
  (s: string) => !s.includes('\u0000') && s.isWellFormed(),
  'text contains characters that cannot be stored (NUL or broken Unicode)',
)
