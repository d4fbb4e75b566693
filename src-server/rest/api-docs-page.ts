import type { AnyRoute } from './route'
import { requiredScopes } from '../auth/authorize'

const escape = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** A self-contained, readable reference of the REST API (no external assets: plants are often offline). */
export function apiDocsPage(routes: readonly AnyRoute[], apiPrefix: string): string {
  const byTag = Map.groupBy(routes, (r) => r.tag)
  const sections = [...byTag]
    .map(([tag, rs]) => {
      const rows = rs
        .map((r) => {
          const access = r.access.scope === 'public' ? 'public' : r.access.scope === 'signed-in' ? 'signed in' : requiredScopes(r.access).join(' | ')
          return `<tr><td class="m ${r.method}">${r.method.toUpperCase()}</td><td><code>${escape(apiPrefix + r.path)}</code></td><td>${escape(r.summary)}</td><td>${escape(access)}</td></tr>`
        })
        .join('')
      return `<h2>${escape(tag)}</h2><table><tr><th>Method</th><th>Path</th><th>What it does</th><th>Permission</th></tr>${rows}</table>`
    })
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MES REST API</title>
<style>body{font:15px system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}.m{font-weight:700;font-family:monospace}
.get{color:#1971c2}.post{color:#2f9e44}.put,.patch{color:#e8590c}.delete{color:#c92a2a}</style></head>
<body><h1>MES REST API</h1><p>Machine-readable: <a href="${apiPrefix}/openapi.json">${apiPrefix}/openapi.json</a> (OpenAPI 3.1).
Success: <code>{"detail": ...}</code>. Failure: 4xx with <code>{"detail":{"message","code"}}</code>.
Authenticate with <code>Authorization: Bearer &lt;token&gt;</code>.</p>${sections}</body></html>`
}
