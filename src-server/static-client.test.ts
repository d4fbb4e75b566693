import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import type { AppEnv } from './http-env'
import { IMMUTABLE, mountClient, REVALIDATE } from './static-client'

// A tiny fake build: one hashed chunk with its .br/.gz, one without, index.html with both, an icon.
const JS = 'export const answer = 42;\n'.repeat(50)
const HTML = '<!doctype html><div id="root"></div>'
let dist: string
let app: Hono<AppEnv>

beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'mes-dist-'))
  mkdirSync(path.join(dist, 'assets'))
  const write = (name: string, text: string) => {
    writeFileSync(path.join(dist, name), text)
    writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(text))
    writeFileSync(path.join(dist, `${name}.gz`), gzipSync(text))
  }
  write('assets/index-AbC123.js', JS)
  write('index.html', HTML)
  writeFileSync(path.join(dist, 'assets/plain-XyZ789.css'), 'body{margin:0}')
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>')
  app = new Hono<AppEnv>()
  mountClient(app, dist, (c) => c.json({ detail: { code: 'NOT_FOUND' } }, 404))
})
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const get = (p: string, acceptEncoding?: string) =>
  app.request(`http://mes.test${p}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } })

describe('built client', () => {
  test('hashed assets: brotli when accepted, immutable for a year, varying by Accept-Encoding', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate, br, zstd')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('br')
    expect(res.headers.get('content-type')).toStartWith('text/javascript')
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    const body = new Uint8Array(await res.arrayBuffer())
    expect(body.length).toBeLessThan(JS.length / 4)
  })

  test('gzip for a browser without brotli; identity for one that accepts neither', async () => {
    const gz = await get('/assets/index-AbC123.js', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(JS)
    const plain = await get('/assets/index-AbC123.js')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Accept-Encoding')
    expect(await plain.text()).toBe(JS)
    const refused = await get('/assets/index-AbC123.js', 'br;q=0, gzip;q=0')
    expect(refused.headers.get('content-encoding')).toBeNull()
  })

  test('an asset without compressed copies is sent as is, still immutable', async () => {
    const res = await get('/assets/plain-XyZ789.css', 'br, gzip')
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(await res.text()).toBe('body{margin:0}')
  })

  test('a missing hashed asset is 404, not the SPA page', async () => {
    const res = await get('/assets/gone-0000.js', 'br')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toStartWith('application/json')
  })

  test('index.html, client routes and unhashed files are revalidated (no-cache), never stale', async () => {
    for (const p of ['/', '/index.html', '/app/operator/jobs', '/login?redirect_to=%2Fapp']) {
      const res = await get(p, 'gzip, br')
      expect(res.status, p).toBe(200)
      expect(res.headers.get('cache-control'), p).toBe(REVALIDATE)
      expect(res.headers.get('content-encoding'), p).toBe('br')
      expect(res.headers.get('content-type'), p).toStartWith('text/html')
    }
    const plain = await get('/app/admin/users')
    expect(await plain.text()).toBe(HTML)
    const icon = await get('/favicon.svg', 'br')
    expect(icon.headers.get('cache-control')).toBe(REVALIDATE)
    expect(await icon.text()).toBe('<svg/>')
  })
})
