import { describe, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import packageJson from '../../package.json'
import { ORIGIN, useHarness } from '../test/harness'
import { restRoutes } from './routes'

const PINNED = packageJson.dependencies['@scalar/api-reference']

describe('/api/docs: the interactive reference, served by the app alone', () => {
  const h = useHarness()
  const get = (path: string, headers: Record<string, string> = {}) => h.app.request(`${ORIGIN}${path}`, { headers })

  test('the Scalar renderer is pinned to an exact version', () => {
    expect(PINNED).toMatch(/^\d+\.\d+\.\d+$/)
  })

  test('the page loads the bundle and the OpenAPI document from the app, nothing from elsewhere', async () => {
    const res = await get('/api/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type') ?? '').toContain('text/html')
    const html = await res.text()
    expect(html.toLowerCase()).toStartWith('<!doctype html>')
    expect(html).toContain(`<script src="/api/docs/scalar-api-reference-${PINNED}.js"></script>`)
    expect(html).toContain('"url":"/api/openapi.json"')
    // Offline options: no font host, no telemetry, no AI agent.
    expect(html).toContain('"withDefaultFonts":false')
    expect(html).toContain('"telemetry":false')
    expect(html).toContain('"agent":{"disabled":true}')
    // Every src/href is a path on this app.
    const links = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(link).toStartWith('/api/')
  })

  test('the bundle is JavaScript, gzipped for browsers that accept it, cacheable for good (its name carries the version)', async () => {
    const plain = await get(`/api/docs/scalar-api-reference-${PINNED}.js`)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(plain.headers.get('content-encoding')).toBeNull()
    const code = await plain.text()
    expect(code).toContain('createApiReference')
    expect(code).not.toContain('sourceMappingURL')
    const zipped = await get(`/api/docs/scalar-api-reference-${PINNED}.js`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = new Uint8Array(await zipped.arrayBuffer())
    expect(bytes.byteLength).toBeLessThan(code.length / 2)
    expect(gunzipSync(bytes).toString('utf8')).toBe(code)
    // Another version's name is no file.
    expect((await get('/api/docs/scalar-api-reference-0.0.1.js')).status).toBe(404)
  })

  test('the OpenAPI document offers the bearer token on every route that needs sign-in', async () => {
    const doc = (await (await get('/api/openapi.json')).json()) as {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> }
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>
    }
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
    for (const r of restRoutes) {
      const security = doc.paths[r.path]![r.method]!.security
      expect({ route: `${r.method} ${r.path}`, bearer: security.some((s) => 'bearer' in s) }).toEqual({
        route: `${r.method} ${r.path}`,
        bearer: r.access.scope !== 'public',
      })
    }
  })
})
