import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { authenticate } from './auth/authenticate'
import { authorize } from './auth/authorize'
import { MEDIA_FILE_PATH, serveMediaFile } from './domains/media/http'
import { mountBatchFiles } from './domains/execution/http'
import { mountProductFiles } from './domains/products/http'
import { STEP_MEDIA_FILE_PATH, serveStepMediaFile } from './domains/process/step-media'
import type { Services } from './context'
import { databaseAnswers } from './db/health'
import { isDatabaseUnavailable } from './db/unavailable'
import { AppError, DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from './errors'
import type { AppEnv } from './http-env'
import { mountApiReference } from './rest/api-reference'
import { mountRoutes } from './rest/mount'
import { buildOpenApi } from './rest/openapi'
import { JSON_BODY_LIMIT } from './rest/route'
import { restRoutes } from './rest/routes'
import { mountClient } from './static-client'
import { assertSafeKey } from './storage/file-store'
import { trpcHandler, trpcRefusal } from './trpc/handler'


// An extra never hides the error's own message or code (a serial refusal's `code` is the serial's: `serial_code` over REST).
const errorBody = (message: string, code: string, extra?: Record<string, unknown>) => ({ detail: { ...extra, message, code } })

/** How long GET /api/health waits for the database's `select 1`. */
const HEALTH_TIMEOUT_MS = 1_000

/** The whole HTTP surface, testable with `app.request()` and no port. */
export function createApp(svc: Services) {
  const prefix = svc.config.apiPrefix
  const app = new Hono<AppEnv>()

  app.onError((err, c) => {
    if (!(err instanceof AppError) && isDatabaseUnavailable(err)) {
      // An outage, not a bug: one line, and the caller is told to come back (no stack trace per request).
      console.error(`[http] ${c.req.method} ${c.req.path}: database unavailable (${(err as Error).message})`)
      err = databaseUnavailable()
    }
    if (err instanceof AppError) {
      // A throttled sign-in says when to come back, for scripts as well as in `detail.retry_after`.
      if (err.status === 429 && typeof err.extra?.retry_after === 'number') c.header('Retry-After', String(err.extra.retry_after))
      if (err.status === 503) c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
      return c.json(errorBody(err.message, err.appCode, err.extra), err.status)
    }
    if (err instanceof HTTPException && err.status < 500) return c.json(errorBody(err.message, 'INVALID_INPUT'), err.status)
    console.error(`[http] ${c.req.method} ${c.req.path}:`, err)
    return c.json(errorBody('internal error', 'INTERNAL'), 500)
  })

  const api = new Hono<AppEnv>()
  // Before authentication (a probe reads no session): load balancers take an instance whose
  // database does not answer out of rotation; the tablets' offline probe waits for it too.
  api.get('/health', async (c) => {
    if (await databaseAnswers(svc.db, HEALTH_TIMEOUT_MS)) return c.json({ detail: { status: 'ok', database: svc.dbKind } })
    const refusal = databaseUnavailable()
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
    return c.json({ detail: { status: 'unavailable', database: svc.dbKind, code: refusal.appCode, message: refusal.message } }, 503)
  })
  // tRPC answers a 503 itself (errorFormatter): it says when to come back like REST does.
  api.use('/trpc/*', async (c, next) => {
    await next()
    if (c.res.status === 503) c.res.headers.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
  })
  const identify = authenticate(svc)
  const trpcPath = `${prefix}/trpc/`
  api.use(async (c, next) => {
    try {
      await identify(c, next)
    } catch (e) {
      // The caller could not be identified (database unavailable): a tRPC client reads that in
      // tRPC's own shape (each call's data.appCode), like any other refusal.
      if (e instanceof AppError && c.req.path.startsWith(trpcPath)) c.res = await trpcRefusal(`${prefix}/trpc`, c, e)
      else throw e
    }
  })
  const openapi = buildOpenApi(restRoutes, prefix)
  api.get('/openapi.json', (c) => c.json(openapi))
  mountApiReference(api, prefix)
  // tRPC inputs are JSON too: the same 1 MiB limit as the REST routes, refused in tRPC's shape
  // (the client reads every refusal from `error.data`).
  const tooLarge = (c: Context<AppEnv>) => trpcRefusal(`${prefix}/trpc`, c, new AppError(413, 'PAYLOAD_TOO_LARGE', 'request body too large'))
  api.use('/trpc/*', bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: tooLarge }))
  api.all('/trpc/*', trpcHandler(`${prefix}/trpc`))
  mountRoutes(api, restRoutes)
  api.all('*', (c) => c.json(errorBody(`no such API path: ${c.req.method} ${c.req.path}`, 'NOT_FOUND'), 404))
  app.route(prefix, api)

  // Uploaded media by key (`/media/{key}`) with their type and name; other stored files below.
  app.get(MEDIA_FILE_PATH, authenticate(svc), serveMediaFile(svc))
  // Product documents and custom field files with their type and name.
  mountProductFiles(app, svc)
  mountBatchFiles(app, svc)
  // A product step's media by file name (`/media/step/{key}/{filename}`, SPEC 7).
  app.get(STEP_MEDIA_FILE_PATH, authenticate(svc), serveStepMediaFile(svc))
  // Stored files (user images, product media ...) for signed-in users only.
  app.get('/media/*', authenticate(svc), async (c) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    let file: Blob | null = null
    try {
      // Malformed percent-encoding (URIError) and unsafe keys alike name no file.
      file = await svc.files.get(assertSafeKey(decodeURIComponent(c.req.path.slice('/media/'.length))))
    } catch {
      file = null
    }
    if (!file) return c.json(errorBody('file not found', 'NOT_FOUND'), 404)
    return new Response(file, {
      headers: { 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' },
    })
  })

  // The built client (precompressed, cached by kind), every other path falls back to the SPA.
  const notFound = (c: Context<AppEnv>) => c.json(errorBody('not found', 'NOT_FOUND'), 404)
  mountClient(app, svc.config.clientDist, notFound)
  app.all('*', notFound)
  return app
}
