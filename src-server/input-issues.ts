import * as v from 'valibot'
import type { InputIssue, InputIssueKind } from '../src/input-issues'
import { DayInput } from '../src/dates'
import { badRequest } from './errors'

type AnyIssue = v.BaseIssue<unknown>

const CHOICE_TYPES = new Set(['picklist', 'enum', 'literal', 'union', 'variant'])
const FORMAT_TYPES = new Set(['uuid', 'email', 'regex', 'url', 'iso_date', 'iso_time', 'iso_date_time', 'iso_timestamp', 'hex_color', 'digits', 'starts_with', 'ends_with'])

function kindOf(issue: AnyIssue): InputIssueKind {
  const list = Array.isArray(issue.input)
  switch (issue.type) {
    case 'max_length':
      return list ? 'max_items' : 'max_length'
    case 'min_length':
      if (list) return 'min_items'
      return issue.requirement === 1 ? 'required' : 'min_length'
    case 'non_empty':
      return 'required'
    case 'min_value':
    case 'gt_value':
      return 'min_value'
    case 'max_value':
    case 'lt_value':
      return 'max_value'
    case 'integer':
    case 'safe_integer':
      return 'integer'
  }
  if (FORMAT_TYPES.has(issue.type)) return 'format'
  if (issue.kind !== 'schema') return 'invalid'
  // Objects report a missing key with its name expected and an unknown one with 'never'.
  if (issue.expected === 'never') return 'unknown_key'
  if (issue.received === 'undefined') return 'required'
  return CHOICE_TYPES.has(issue.type) ? 'choice' : 'type'
}

/** Valibot's issues as the API answers them (src/input-issues.ts), `schema` naming what a missing entry wants. */
export function inputIssues(issues: readonly AnyIssue[], schema?: v.GenericSchema): InputIssue[] {
  return issues.map((issue) => {
    const kind = kindOf(issue)
    const path = v.getDotPath(issue) ?? ''
    const limit = kind.startsWith('min_') || kind.startsWith('max_') ? issue.requirement : undefined
    const message = kind === 'unknown_key' ? 'unknown key' : plainMessage(issue, kind, schema)
    return typeof limit === 'number' ? { path, kind, limit, message } : { path, kind, message }
  })
}

type SchemaNode = { type: string; wrapped?: SchemaNode; entries?: Record<string, SchemaNode>; item?: SchemaNode; options?: unknown[]; pipe?: { type: string }[] }
const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish'])
const unwrap = (node: SchemaNode | undefined) => {
  while (node && WRAPPERS.has(node.type)) node = node.wrapped
  return node
}

/** The schema of the entry an issue is about (through objects and arrays), when it can be told. */
function entrySchema(schema: v.GenericSchema | undefined, issue: AnyIssue): SchemaNode | undefined {
  let node = unwrap(schema as SchemaNode | undefined)
  for (const step of issue.path ?? []) {
    if (!node) return undefined
    node = unwrap(node.type === 'array' ? node.item : node.entries?.[String(step.key)])
  }
  return node
}

/** What an entry takes, in words: "YYYY/MM/DD", "a number", "one of a, b" ... */
function expectedWords(node: SchemaNode | undefined): string | undefined {
  if (!node) return undefined
  if (node === (DayInput as unknown)) return 'YYYY/MM/DD'
  if (node.pipe?.some((p) => p.type === 'uuid')) return 'a key'
  switch (node.type) {
    case 'number':
      return node.pipe?.some((p) => p.type === 'integer' || p.type === 'safe_integer') ? 'a whole number' : 'a number'
    case 'boolean':
      return 'true or false'
    case 'string':
      return 'text'
    case 'array':
      return 'a list'
    case 'object':
      return 'an object'
    case 'picklist':
      return `one of ${(node.options ?? []).join(', ')}`
  }
  return undefined
}

const received = (issue: AnyIssue) => (issue.received && issue.received !== 'undefined' ? ` (received ${issue.received})` : '')

/**
 * A plain sentence for valibot's default messages ("Invalid key: Expected "from" but received
 * undefined" becomes "is required (YYYY/MM/DD)"); a schema's own message is kept as written.
 */
function plainMessage(issue: AnyIssue, kind: InputIssueKind, schema: v.GenericSchema | undefined): string {
  if (!issue.message.startsWith('Invalid ')) return issue.message
  const entry = entrySchema(schema, issue)
  const words = expectedWords(entry)
  const unit = Array.isArray(issue.input) ? 'items' : 'characters'
  switch (kind) {
    case 'required':
      return issue.type === 'min_length' || issue.type === 'non_empty' ? 'must not be empty' : `is required${words ? ` (${words})` : ''}`
    case 'type':
      return `must be ${words ?? String(issue.expected)}${received(issue)}`
    case 'choice':
      return `must be ${words ?? `one of ${String(issue.expected).replace(/^\(|\)$/g, '').replaceAll('"', '').replaceAll(' | ', ', ')}`}${received(issue)}`
    case 'min_length':
    case 'min_items':
      return `must have at least ${String(issue.requirement)} ${unit}`
    case 'max_length':
    case 'max_items':
      return `must have at most ${String(issue.requirement)} ${unit}`
    case 'min_value':
      return issue.type === 'gt_value' ? `must be greater than ${String(issue.requirement)}` : `must be at least ${String(issue.requirement)}`
    case 'max_value':
      return issue.type === 'lt_value' ? `must be less than ${String(issue.requirement)}` : `must be at most ${String(issue.requirement)}`
    case 'integer':
      return 'must be a whole number'
    case 'format':
      return `has the wrong format${words ? `: write ${words}` : ''}${received(issue)}`
  }
  return issue.message
}

// A plain message that reads on from the field's name ("from is required ...").
const PREDICATE = /^(is|must|has) /

/**
 * 400 INVALID_INPUT: the first issue is the message ("notes: Invalid length ..."), all of them go
 * in `issues`; `extra` adds keys to the answer (`phase`, `step` ...).
 */
export function invalidInput(issues: readonly InputIssue[], extra?: Record<string, unknown>) {
  const first = issues[0]
  const message = first ? (first.path ? `${first.path}${PREDICATE.test(first.message) ? ' ' : ': '}${first.message}` : first.message) : 'invalid input'
  return badRequest('INVALID_INPUT', message, { ...extra, issues })
}

/**
 * 400 INVALID_INPUT for a rule a service checks itself (a repeated key, an empty file ...),
 * answered like a schema refusal so the client names the field in the user's language.
 * `message` is the English text without the path.
 */
export const invalidField = (issue: InputIssue, extra?: Record<string, unknown>) => invalidInput([issue], extra)
