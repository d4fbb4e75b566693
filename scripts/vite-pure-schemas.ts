import type { Plugin } from 'vite'

/** The code shared with the server (src/): schemas, rules, dates, messages. */
const SHARED_SRC = /[\\/]src[\\/](?!.*\.test\.ts$).*\.ts$/

type Node = { type: string; start: number; end: number; [key: string]: unknown }

/**
 * Marks the calls that build src/'s top-level constants `/* @__PURE__ *\/` (valibot schemas:
 * `export const X = v.object({...})`), so the bundler drops the ones no client module uses. A
 * screen's route imports a list or a limit from a domain's schemas.ts for its search params, and
 * without the mark every schema of that file (and of the files it imports) came along into the
 * first load, since a call might have side effects (issue 23: the route tree's chunk). Only the
 * initialisers of top-level `const`s, never a function's body: in src/ those build values
 * (schemas, lists, maps), which is what makes the mark true.
 */
export function pureSharedConstants(): Plugin {
  return {
    name: 'mes-pure-shared-constants',
    apply: 'build',
    transform(code, id) {
      if (!SHARED_SRC.test(id) || id.includes('node_modules')) return null
      const program = this.parse(code) as unknown as { body: Node[] }
      const marks: number[] = []
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue
        for (const d of declaration.declarations as { init: Node | null }[]) if (d.init) collectCalls(d.init, marks)
      }
      if (marks.length === 0) return null
      let out = ''
      let at = 0
      // A chain (`a().b()`) starts where its first call does: one mark per place.
      for (const mark of [...new Set(marks)].sort((a, b) => a - b)) {
        out += `${code.slice(at, mark)}/* @__PURE__ */ `
        at = mark
      }
      return { code: out + code.slice(at), map: null }
    },
  }
}

/** Every call and `new` in an expression, not inside functions (their bodies run later, if ever). */
function collectCalls(node: Node, marks: number[]) {
  if (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression' || node.type === 'ClassExpression') return
  if (node.type === 'CallExpression' || node.type === 'NewExpression') marks.push(node.start)
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue
    if (Array.isArray(value)) for (const v of value) isNode(v) && collectCalls(v, marks)
    else if (isNode(value)) collectCalls(value, marks)
  }
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string' && typeof (v as Node).start === 'number'
