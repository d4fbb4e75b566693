import { invalidField } from './input-issues'

/** Nothing the API takes nests this deep; PostgreSQL fails and PGlite hangs on very deep jsonb. */
export const MAX_INPUT_DEPTH = 32

/**
 * Refuses, as 400 INVALID_INPUT, input the database cannot store or should not be asked to
 * parse: text holding NUL (U+0000) or unpaired surrogates (PostgreSQL text and jsonb reject
 * both) and absurd nesting.
 * Runs on every REST and tRPC input before schemas and handlers see it. Iterative, so deep
 * input cannot overflow the stack here either.
 */
export function assertStorableInput(value: unknown): void {
  const stack: [unknown, string, number][] = [[value, '', 0]]
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw invalidField({ path, kind: 'bad_characters', message: 'text must not contain NUL characters' })
      if (!v.isWellFormed()) throw invalidField({ path, kind: 'bad_characters', message: 'text must be valid Unicode (unpaired surrogate)' })
      continue
    }
    if (v === null || typeof v !== 'object' || v instanceof Blob) continue
    if (depth >= MAX_INPUT_DEPTH) throw invalidField({ path, kind: 'invalid', message: 'nested too deeply' })
    for (const [k, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${k}` : k
      if (k.includes('\u0000') || !k.isWellFormed()) {
        throw invalidField({ path, kind: 'bad_characters', message: 'keys must be valid Unicode without NUL characters' })
      }
      stack.push([child, childPath, depth + 1])
    }
  }
}

/**
 * The tRPC side: checks a procedure's raw input. A body tRPC cannot read is left to tRPC
 * (procedures without input never read it; those with input report it themselves).
 */
export async function assertStorableRawInput(getRawInput: () => Promise<unknown>): Promise<void> {
  let raw: unknown
  try {
    raw = await getRawInput()
  } catch {
    return
  }
  assertStorableInput(raw)
}
