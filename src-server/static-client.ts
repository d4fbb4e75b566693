import path from 'node:path'
import type { Context, Hono } from 'hono'
import { serveStatic } from 'hono/bun'
import type { AppEnv } from './http-env'

/** Hashed build output (`/assets/name-<hash>.js`): a new build gets new names, so a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** index.html and unhashed files: the browser may keep a copy but asks before every use. */
export const REVALIDATE = 'no-cache'

/**
 * Serves the built client from `distDir`. The build writes `.br` and `.gz` next to every
 * compressible file (vite.config.ts, `precompress`); the smallest one the browser accepts is
 * sent with its Content-Encoding, and every answer says it varies by Accept-Encoding so a
 * shared cache never hands brotli to a browser that did not ask for it.
 * A missing hashed asset answers 404 (not the SPA page): a tab left open across a deploy then
 * fails the import cleanly instead of parsing HTML as JavaScript.
 */
export function mountClient(app: Hono<AppEnv>, distDir: string, notFound: (c: Context<AppEnv>) => Response) {
  const root = path.relative(process.cwd(), distDir)
  const cacheFor = (cacheControl: string) => (_path: string, c: Context<AppEnv>) => {
    c.header('cache-control', cacheControl)
    c.header('vary', 'Accept-Encoding')
  }
  app.use('/assets/*', serveStatic({ root, precompressed: true, onFound: cacheFor(IMMUTABLE) }))
  app.get('/assets/*', notFound)
  app.use('*', serveStatic({ root, precompressed: true, onFound: cacheFor(REVALIDATE) }))
  // Every other path is a client route: the SPA page, never cached stale.
  app.get('*', serveStatic({ path: path.join(root, 'index.html'), precompressed: true, onFound: cacheFor(REVALIDATE) }))
}
