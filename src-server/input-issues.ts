import * as v from 'valibot'
import type { InputIssue, InputIssueKind } from '../src/input-issues'
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

/** Valibot's issues as the API answers them (src/input-issues.ts). */
export function inputIssues(issues: readonly AnyIssue[]): InputIssue[] {
  return issues.map((issue) => {
    const kind = kindOf(issue)
    const path = v.getDotPath(issue) ?? ''
    const limit = kind.startsWith('min_') || kind.startsWith('max_') ? issue.requirement : undefined
    const message = kind === 'unknown_key' ? 'unknown key' : issue.message
    return typeof limit === 'number' ? { path, kind, limit, message } : { path, kind, message }
  })
}

/**
 * 400 INVALID_INPUT: the first issue is the message ("notes: Invalid length ..."), all of them go
 * in `issues`; `extra` adds keys to the answer (`phase`, `step` ...).
 */
export function invalidInput(issues: readonly InputIssue[], extra?: Record<string, unknown>) {
  const first = issues[0]
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid input'
  return badRequest('INVALID_INPUT', message, { ...extra, issues })
}

/**
 * 400 INVALID_INPUT for a rule a service checks itself (a repeated key, an empty file ...),
 * answered like a schema refusal so the client names the field in the user's language.
 * `message` is the English text without the path.
 */
export const invalidField = (issue: InputIssue, extra?: Record<string, unknown>) => invalidInput([issue], extra)
