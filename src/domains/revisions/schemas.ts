import * as v from 'valibot'
import { BomLine } from '../products/bom'
import { Phase } from '../process/process'
import { SignatureInput, SignatureView } from '../signatures/schemas'

/**
 * Change control (issue 21, DOMAIN.md "Records"): a product's process and bom are edited as a
 * draft; "Rilascia" with a reason makes revision N (1, 2, 3 ...), which never changes again. Work
 * orders run on the revision released when they were made.
 */
export const REVISION_REASON_MAX = 2000
export const REVISION_ORIGINS = ['release', 'migration'] as const

export const ReleaseInput = v.object({
  reason: v.pipe(v.string(), v.trim(), v.minLength(1, 'a release needs a reason'), v.maxLength(REVISION_REASON_MAX)),
  /** When the settings require releases to be signed (signature_revision_release). */
  signature: v.optional(SignatureInput),
})
export type ReleaseInput = v.InferOutput<typeof ReleaseInput>

const RevisionNumber = v.pipe(v.number(), v.integer('a revision number is a whole number'), v.minValue(1), v.maxValue(1_000_000))
/** One side of a comparison: a revision number, or the draft. */
export const DiffSide = v.union([RevisionNumber, v.literal('draft')], 'a revision number or "draft"')
export type DiffSide = v.InferOutput<typeof DiffSide>

export const RevisionField = v.object({
  _key: v.string(),
  name: v.string(),
  type: v.string(),
  options: v.array(v.string()),
  multiple: v.boolean(),
  mandatory: v.boolean(),
  help_text: v.string(),
})
export type RevisionField = v.InferOutput<typeof RevisionField>

export const RevisionBomLine = v.object({ ...v.omit(BomLine, ['item_active']).entries })
export type RevisionBomLine = v.InferOutput<typeof RevisionBomLine>

/** A phase as released (or as the draft has it): its place, its steps and its components. */
export const RevisionPhase = v.object({
  ...v.omit(Phase, ['component_count']).entries,
  /** The phase's identity across revisions (the draft phase it was released from). */
  lineage: v.string(),
  department_name: v.nullable(v.string()),
  counter_name: v.nullable(v.string()),
  bom: v.array(RevisionBomLine),
})
export type RevisionPhase = v.InferOutput<typeof RevisionPhase>

/** Everything a revision fixes: the process with each phase's bom, and the form fields its steps use. */
export const RevisionContent = v.object({
  phases: v.array(RevisionPhase),
  form_fields: v.record(v.string(), RevisionField),
})
export type RevisionContent = v.InferOutput<typeof RevisionContent>

export const RevisionSummary = v.object({
  _key: v.string(),
  number: v.number(),
  reason: v.string(),
  origin: v.picklist(REVISION_ORIGINS),
  released_by: v.nullable(v.object({ _key: v.string(), name: v.string() })),
  /** UTC milliseconds. */
  released_at: v.number(),
  /** The release's electronic signatures, each checked against the revision as it is today. */
  signatures: v.array(SignatureView),
})
export type RevisionSummary = v.InferOutput<typeof RevisionSummary>

export const Revision = v.object({ product_key: v.string(), ...RevisionSummary.entries, ...RevisionContent.entries })
export type Revision = v.InferOutput<typeof Revision>

export const RevisionList = v.object({
  product_key: v.string(),
  /** Newest first. */
  revisions: v.array(RevisionSummary),
  /** The draft differs from the latest revision (or there is none yet and the draft has phases). */
  draft_changed: v.boolean(),
})
export type RevisionList = v.InferOutput<typeof RevisionList>

/** How a work order or a job names its revision. */
export const RevisionRef = v.object({ _key: v.string(), number: v.number() })
export type RevisionRef = v.InferOutput<typeof RevisionRef>
