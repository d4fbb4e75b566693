import * as v from 'valibot'
import type { InputIssue } from '../src/input-issues'

/** The parts of a valibot schema the walk reads (valibot schemas are plain objects). */
type Node = {
  type: string
  entries?: Record<string, Node>
  wrapped?: Node
  item?: Node
  items?: Node[]
  value?: Node
  options?: Node[]
  /** A variant's discriminator key. */
  key?: string
  getter?: (input: unknown) => Node
}

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Blob)

const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish'])

function walk(schema: Node, value: unknown, path: string, out: InputIssue[]): void {
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key))
  if (WRAPPERS.has(schema.type)) return walk(schema.wrapped!, value, path, out)
  switch (schema.type) {
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      if (!isPlainObject(value)) return
      const entries = schema.entries ?? {}
      const known = Object.keys(entries)
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(entries, key)) walk(entries[key]!, value[key], at(key), out)
        else if (schema.type !== 'loose_object') {
          const message = known.length ? `unknown key (known keys here: ${known.join(', ')})` : 'unknown key (nothing is taken here)'
          out.push({ path: at(key), kind: 'unknown_key', message })
        }
      }
      return
    }
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => walk(schema.item!, item, at(i), out))
      return
    case 'tuple':
      if (Array.isArray(value)) schema.items!.forEach((item, i) => walk(item, value[i], at(i), out))
      return
    case 'record':
      if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) walk(schema.value!, item, at(key), out)
      return
    case 'union':
    case 'variant': {
      // The option the value is meant for: a variant's by its discriminator, a union's the first
      // the value fits (objects drop unknown keys, so a typo still fits its option).
      const discriminator = schema.type === 'variant' && isPlainObject(value) ? value[schema.key!] : undefined
      const option = schema.options!.find((o) =>
        schema.type === 'variant' ? o.entries && v.is(o.entries[schema.key!] as unknown as v.GenericSchema, discriminator) : v.is(o as unknown as v.GenericSchema, value),
      )
      if (option) return walk(option, value, path, out)
      // None: keys no object option declares are unknown whichever was meant.
      const objects = schema.options!.filter((o) => o.entries)
      if (objects.length) walk({ type: 'object', entries: Object.assign({}, ...objects.map((o) => o.entries)) }, value, path, out)
      return
    }
    case 'lazy':
      return walk(schema.getter!(value), value, path, out)
  }
}

/**
 * Keys `value` holds that `schema` does not declare, at any depth (loose objects and records
 * take any key). Valibot objects silently drop unknown keys; the API refuses them instead, so
 * a typo in a script (`qunatity`) is a 400 naming it rather than a field quietly left unset.
 */
export function unknownKeyIssues(schema: v.GenericSchema, value: unknown): InputIssue[] {
  const out: InputIssue[] = []
  walk(schema as unknown as Node, value, '', out)
  return out
}

/** Issues for input given where none is taken (a query string or body on a path without one). */
export function unexpectedInputIssues(value: unknown, what: string): InputIssue[] {
  if (value === undefined || value === null) return []
  if (isPlainObject(value)) return Object.keys(value).map((key) => ({ path: key, kind: 'unknown_key', message: `unknown key (this path takes no ${what})` }))
  return [{ path: '', kind: 'invalid', message: `this path takes no ${what}` }]
}
