import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Context, Hono } from 'hono'
import type { AppEnv } from '../http-env'

/**
 * The interactive REST reference at `<prefix>/docs`: Scalar's API reference (its standalone
 * browser bundle from node_modules, pinned in package.json) rendering `<prefix>/openapi.json`,
 * with a "Test request" panel that takes a bearer token. Everything is served by the app itself:
 * plants are often offline, so the page asks no CDN, font host, telemetry or AI service.
 */
// The package exports neither its browser bundle nor package.json: both are found beside its entry (dist/index.js).
const SCALAR_DIST = path.dirname(Bun.resolveSync('@scalar/api-reference', import.meta.dir))
const SCALAR_VERSION: string = JSON.parse(readFileSync(path.join(SCALAR_DIST, '..', 'package.json'), 'utf8')).version
const BUNDLE_PATH = path.join(SCALAR_DIST, 'browser', 'standalone.js')
/** Versioned, so a browser may keep it for good and an upgrade is fetched anew. */
const BUNDLE_FILE = `scalar-api-reference-${SCALAR_VERSION}.js`

/** Options of Scalar's createApiReference (see @scalar/types, api-reference-configuration). */
const scalarOptions = (apiPrefix: string) => ({
  url: `${apiPrefix}/openapi.json`,
  // Offline: no Inter/JetBrains Mono from fonts.scalar.com, no telemetry, no AI agent, no MCP link.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  // "Open API Client" leads to Scalar's hosted client; the in-page "Test Request" stays.
  hideClientButton: true,
  documentDownloadType: 'json',
  // The token field offered first is the bearer one (a session token or an API token).
  authentication: { preferredSecurityScheme: 'bearer' },
  defaultOpenFirstTag: true,
})

/** JSON inside <script>: `</script>` or `<!--` in a string must not end or confuse the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** The mount point must not be `#api-reference`: the bundle would also mount an unconfigured copy there (its legacy auto-start). */
function referencePage(apiPrefix: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MES REST API</title>
<style>body{margin:0;font-family:system-ui,sans-serif}</style>
</head>
<body>
<noscript><p>The interactive reference needs JavaScript. The API is described in
<a href="${apiPrefix}/openapi.json">${apiPrefix}/openapi.json</a> (OpenAPI 3.1).</p></noscript>
<div id="reference"></div>
<script src="${apiPrefix}/docs/${BUNDLE_FILE}"></script>
<script>Scalar.createApiReference('#reference', ${scriptJson(scalarOptions(apiPrefix))})</script>
</body>
</html>`
}

let bundle: Promise<{ plain: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> }> | undefined
/** Read and gzipped once, on first use (4 MB of JavaScript; about a quarter of it gzipped). */
function loadBundle() {
  bundle ??= Bun.file(BUNDLE_PATH)
    .text()
    .then((text) => {
      // The source map is not shipped with the page; the comment would only make devtools ask for it.
      const plain = new TextEncoder().encode(text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'))
      return { plain, gzip: new Uint8Array(Bun.gzipSync(plain)) }
    })
  return bundle
}

async function serveBundle(c: Context<AppEnv>) {
  const { plain, gzip } = await loadBundle()
  const gzipped = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
  const headers: Record<string, string> = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'Accept-Encoding',
  }
  if (gzipped) headers['content-encoding'] = 'gzip'
  return new Response(gzipped ? gzip : plain, { headers })
}

/** Mounts the reference page and its bundle on the API sub-app (`/docs`, `/docs/<bundle>`). */
export function mountApiReference(api: Hono<AppEnv>, apiPrefix: string) {
  const page = referencePage(apiPrefix)
  api.get('/docs', (c) => c.html(page))
  api.get(`/docs/${BUNDLE_FILE}`, serveBundle)
}
