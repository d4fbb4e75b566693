import * as v from 'valibot'
import { SCOPES } from '../../auth/scopes'

/**
 * Steps of a phase (DOMAIN.md "Master data"): an `instruction` (text and media to read) or a
 * `form` (fields of the form field library to fill). Operations keep default steps; product
 * phases copy them and edit their own. Both use these schemas and rules.
 */
export const STEP_TYPES = ['instruction', 'form'] as const
export type StepType = (typeof STEP_TYPES)[number]

export const MAX_STEPS = 200
export const MAX_STEP_TEXT = 20_000
export const MAX_STEP_MEDIA = 50
export const MAX_STEP_FIELDS = 100

/**
 * What a signature on a step means (21 CFR 11.50: each signature says what it stands for):
 * Eseguito / Performed, Verificato / Verified, Approvato / Approved.
 */
export const SIGNATURE_MEANINGS = ['performed', 'verified', 'approved'] as const
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number]

/**
 * A step that must be signed when completed (issue 22): by the operator with `meaning`, and, when
 * `second_signer` names a permission word, by a second person holding it (four eyes on one tablet).
 * Part of the step definition, so of the released revision.
 */
export const StepSignature = v.object({
  meaning: v.picklist(SIGNATURE_MEANINGS, `signature meaning must be one of ${SIGNATURE_MEANINGS.join(', ')}`),
  second_signer: v.nullable(v.picklist(SCOPES, `second_signer must be a permission word: ${SCOPES.join(', ')}`)),
})
export type StepSignature = v.InferOutput<typeof StepSignature>

const RefKey = (what: string) => v.pipe(v.string(), v.uuid(`${what} keys must be valid keys`))
const TemplateKey = v.pipe(v.string(), v.minLength(1), v.maxLength(100))

/** A step as clients send it; a missing `_key` gets a new one. Rules with their own codes live in `stepProblem`. */
export const StepInput = v.object({
  _key: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'a step _key holds letters, digits, _ and - only'))),
  type: v.picklist(STEP_TYPES, 'step type must be instruction or form'),
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'a step title may have at most 200 characters'))),
  text: v.optional(v.pipe(v.string(), v.maxLength(MAX_STEP_TEXT, `a step text may have at most ${MAX_STEP_TEXT} characters`))),
  media: v.optional(v.pipe(v.array(RefKey('media')), v.maxLength(MAX_STEP_MEDIA, `a step may have at most ${MAX_STEP_MEDIA} media`))),
  fields: v.optional(v.pipe(v.array(RefKey('form field')), v.maxLength(MAX_STEP_FIELDS, `a step may have at most ${MAX_STEP_FIELDS} fields`))),
  print_templates: v.optional(v.pipe(v.array(TemplateKey), v.maxLength(50))),
  /** null or absent: completing the step needs no signature. */
  signature: v.optional(v.nullable(StepSignature)),
})
export type StepInput = v.InferOutput<typeof StepInput>

export const StepsInput = v.pipe(v.array(StepInput), v.maxLength(MAX_STEPS, `at most ${MAX_STEPS} steps`))

export const Step = v.object({
  _key: v.string(),
  type: v.picklist(STEP_TYPES),
  title: v.string(),
  text: v.string(),
  media: v.array(v.string()),
  fields: v.array(v.string()),
  print_templates: v.array(v.string()),
  // Steps stored before signatures existed have no entry: read it through signatureOf.
  signature: v.optional(v.nullable(StepSignature)),
})
export type Step = v.InferOutput<typeof Step>

const unique = (keys: readonly string[] | undefined) => [...new Set(keys ?? [])]

/** Fills the optional parts, drops repeated references, gives new steps a key. Check `stepProblem` first. */
export function normaliseSteps(steps: readonly StepInput[], newKey: () => string): Step[] {
  return steps.map((s) => ({
    _key: s._key ?? newKey(),
    type: s.type,
    title: s.title ?? '',
    text: s.text ?? '',
    media: unique(s.media),
    fields: unique(s.fields),
    print_templates: unique(s.print_templates),
    signature: s.signature ?? null,
  }))
}

export type StepProblem =
  | { code: 'STEP_FIELDS_REQUIRED'; index: number }
  | { code: 'INSTRUCTION_WITH_FIELDS'; index: number }
  | { code: 'DUPLICATE_STEP_KEY'; index: number }

/** The first rule a list of steps breaks (client forms and the server agree), or null. */
export function stepProblem(steps: readonly { _key?: string; type: StepType; fields?: readonly string[] }[]): StepProblem | null {
  const seen = new Set<string>()
  for (const [index, s] of steps.entries()) {
    if (s._key !== undefined) {
      if (seen.has(s._key)) return { code: 'DUPLICATE_STEP_KEY', index }
      seen.add(s._key)
    }
    if (s.type === 'form' && (s.fields?.length ?? 0) === 0) return { code: 'STEP_FIELDS_REQUIRED', index }
    if (s.type === 'instruction' && (s.fields?.length ?? 0) > 0) return { code: 'INSTRUCTION_WITH_FIELDS', index }
  }
  return null
}

/** Every media and field key the steps refer to, once each. */
export const stepMediaKeys = (steps: readonly { media?: readonly string[] }[]) => unique(steps.flatMap((s) => s.media ?? []))
export const stepFieldKeys = (steps: readonly { fields?: readonly string[] }[]) => unique(steps.flatMap((s) => s.fields ?? []))

/** Same steps in the same order (whatever the key order of the stored JSON). */
export function sameSteps(a: readonly Step[], b: readonly Step[]): boolean {
  const canon = (steps: readonly Step[]) =>
    JSON.stringify(steps.map((s) => [s._key, s.type, s.title, s.text, s.media, s.fields, s.print_templates, signatureOf(s)]))
  return canon(a) === canon(b)
}

/** The signature a step requires, as one value whatever the stored JSON holds (absent = none). */
export const signatureOf = (s: { signature?: StepSignature | null }): StepSignature | null =>
  s.signature ? { meaning: s.signature.meaning, second_signer: s.signature.second_signer ?? null } : null
