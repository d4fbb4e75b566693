import * as v from 'valibot'
import type { RevisionBomLine, RevisionContent, RevisionField, RevisionPhase } from './schemas'
import { type Step, StepSignature, signatureOf } from '../process/steps'

/**
 * What changed between two revisions (or a revision and the draft): phases added, removed,
 * moved or changed; in each phase the attributes, steps (added, removed, moved, reworded) and
 * bom lines; and the definitions of the form fields the steps use. Pure, so the server answers it
 * and tests read it without a database; the screen highlights the text changes.
 */
export const CHANGES = ['added', 'removed', 'changed', 'unchanged'] as const
export type Change = (typeof CHANGES)[number]

const Value = v.unknown()
export const AttributeChange = v.object({ attribute: v.string(), from: Value, to: Value })
export type AttributeChange = v.InferOutput<typeof AttributeChange>

const StepSide = v.object({
  position: v.number(),
  type: v.string(),
  title: v.string(),
  text: v.string(),
  fields: v.array(v.string()),
  media: v.array(v.string()),
  /** The signature completing the step requires (issue 22), null for none. */
  signature: v.nullable(StepSignature),
})
export const StepChange = v.object({
  key: v.string(),
  change: v.picklist(CHANGES),
  moved: v.boolean(),
  from: v.nullable(StepSide),
  to: v.nullable(StepSide),
})
export type StepChange = v.InferOutput<typeof StepChange>

const BomSide = v.object({ quantity: v.number(), quantity_per: v.string(), traceability: v.string(), declared_serials: v.boolean() })
export const BomChange = v.object({
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  change: v.picklist(CHANGES),
  from: v.nullable(BomSide),
  to: v.nullable(BomSide),
})
export type BomChange = v.InferOutput<typeof BomChange>

export const PhaseChange = v.object({
  lineage: v.string(),
  name: v.string(),
  change: v.picklist(CHANGES),
  moved: v.boolean(),
  position: v.object({ from: v.nullable(v.number()), to: v.nullable(v.number()) }),
  attributes: v.array(AttributeChange),
  /** Only the steps that changed. */
  steps: v.array(StepChange),
  /** Only the bom lines that changed. */
  bom: v.array(BomChange),
})
export type PhaseChange = v.InferOutput<typeof PhaseChange>

export const FieldChange = v.object({
  key: v.string(),
  name: v.string(),
  change: v.picklist(CHANGES),
  attributes: v.array(AttributeChange),
})
export type FieldChange = v.InferOutput<typeof FieldChange>

export const RevisionDiff = v.object({
  changed: v.boolean(),
  /** Every phase of either side, in the newer side's order (removed ones where they stood). */
  phases: v.array(PhaseChange),
  fields: v.array(FieldChange),
})
export type RevisionDiff = v.InferOutput<typeof RevisionDiff>

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The keys common to both orders that keep their relative order (a longest common subsequence,
 * ties broken so the keys that travelled furthest are the moved ones); the other common keys moved. Lists are short (steps and phases of one process).
 */
function inOrder(from: readonly string[], to: readonly string[]): Set<string> {
  const common = new Set(from.filter((k) => to.includes(k)))
  const a = from.filter((k) => common.has(k))
  const b = to.filter((k) => common.has(k))
  const len = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!)
  const shift = (k: string) => Math.abs(from.indexOf(k) - to.indexOf(k))
  const kept = new Set<string>()
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      kept.add(a[i]!)
      i++
      j++
    } else if (len[i + 1]![j]! > len[i]![j + 1]!) i++
    else if (len[i + 1]![j]! < len[i]![j + 1]!) j++
    // Either keeps as many in order: call moved the one that travelled further.
    else if (shift(a[i]!) >= shift(b[j]!)) i++
    else j++
  }
  return kept
}

/** Both sides' items in the newer side's order, the removed ones kept where they stood before. */
function merged<T>(from: readonly T[], to: readonly T[], key: (x: T) => string): { key: string; from?: T; to?: T }[] {
  const fromBy = new Map(from.map((x) => [key(x), x]))
  const toBy = new Map(to.map((x) => [key(x), x]))
  const out: { key: string; from?: T; to?: T }[] = to.map((x) => ({ key: key(x), from: fromBy.get(key(x)), to: x }))
  from.forEach((x, i) => {
    const k = key(x)
    if (toBy.has(k)) return
    // After the nearest earlier item of the old order that is still listed.
    const before = from.slice(0, i).reverse().find((p) => out.some((o) => o.key === key(p)))
    const at = before ? out.findIndex((o) => o.key === key(before)) + 1 : 0
    out.splice(at, 0, { key: k, from: x })
  })
  return out
}

const stepSide = (s: Step, position: number) => ({ position, type: s.type, title: s.title, text: s.text, fields: s.fields, media: s.media, signature: signatureOf(s) })

function stepChanges(from: readonly Step[], to: readonly Step[]): StepChange[] {
  const kept = inOrder(
    from.map((s) => s._key),
    to.map((s) => s._key),
  )
  const fromAt = new Map(from.map((s, i) => [s._key, i + 1]))
  const toAt = new Map(to.map((s, i) => [s._key, i + 1]))
  return merged(from, to, (s) => s._key).flatMap(({ key, from: a, to: b }) => {
    const sideA = a ? stepSide(a, fromAt.get(key)!) : null
    const sideB = b ? stepSide(b, toAt.get(key)!) : null
    const moved = Boolean(a && b && !kept.has(key))
    const content = (s: typeof sideA) => s && { ...s, position: 0 }
    const change: Change = !a ? 'added' : !b ? 'removed' : same(content(sideA), content(sideB)) ? 'unchanged' : 'changed'
    return change === 'unchanged' && !moved ? [] : [{ key, change, moved, from: sideA, to: sideB }]
  })
}

const bomSide = (l: RevisionBomLine) => ({ quantity: l.quantity, quantity_per: l.quantity_per, traceability: l.traceability, declared_serials: l.declared_serials })

function bomChanges(from: readonly RevisionBomLine[], to: readonly RevisionBomLine[]): BomChange[] {
  return merged(from, to, (l) => l.item_key).flatMap(({ key, from: a, to: b }) => {
    const line = (b ?? a)!
    const change: Change = !a ? 'added' : !b ? 'removed' : same(bomSide(a), bomSide(b)) ? 'unchanged' : 'changed'
    return change === 'unchanged' ? [] : [{ item_key: key, item_code: line.item_code, item_description: line.item_description, change, from: a ? bomSide(a) : null, to: b ? bomSide(b) : null }]
  })
}

/** The attributes of a phase a person reads as its settings (names rather than keys where there are). */
function phaseAttributes(p: RevisionPhase): Record<string, unknown> {
  return {
    name: p.name,
    operation: p.operation_name,
    department: p.department_name,
    production_notes: p.production_notes,
    print_templates: p.print_templates,
    traceability_level: p.traceability_level,
    counter: p.counter_name,
    ...Object.fromEntries(Object.entries(p.parameters).map(([k, x]) => [`parameters.${k}`, x])),
  }
}

function attributeChanges(from: Record<string, unknown>, to: Record<string, unknown>): AttributeChange[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])]
  return keys.flatMap((attribute) => (same(from[attribute], to[attribute]) ? [] : [{ attribute, from: from[attribute] ?? null, to: to[attribute] ?? null }]))
}

const fieldAttributes = ({ _key: _, ...f }: RevisionField): Record<string, unknown> => f

export function diffRevisions(from: RevisionContent, to: RevisionContent): RevisionDiff {
  const kept = inOrder(
    from.phases.map((p) => p.lineage),
    to.phases.map((p) => p.lineage),
  )
  const phases = merged(from.phases, to.phases, (p) => p.lineage).map(({ key, from: a, to: b }): PhaseChange => {
    const attributes = a && b ? attributeChanges(phaseAttributes(a), phaseAttributes(b)) : []
    const steps = stepChanges(a?.steps ?? [], b?.steps ?? [])
    const bom = bomChanges(a?.bom ?? [], b?.bom ?? [])
    const moved = Boolean(a && b && !kept.has(key))
    const change: Change = !a ? 'added' : !b ? 'removed' : attributes.length || steps.length || bom.length ? 'changed' : 'unchanged'
    return { lineage: key, name: (b ?? a)!.name, change, moved, position: { from: a?.position ?? null, to: b?.position ?? null }, attributes, steps, bom }
  })
  // A field a step starts or stops using shows as that step's change; here, definitions that changed.
  const fields = Object.keys(to.form_fields).flatMap((key): FieldChange[] => {
    const a = from.form_fields[key]
    const b = to.form_fields[key]!
    const attributes = a ? attributeChanges(fieldAttributes(a), fieldAttributes(b)) : []
    return attributes.length ? [{ key, name: b.name, change: 'changed', attributes }] : []
  })
  const changed = phases.some((p) => p.change !== 'unchanged' || p.moved) || fields.length > 0
  return { changed, phases, fields }
}
