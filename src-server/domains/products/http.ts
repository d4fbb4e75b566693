import type { Context, Hono } from 'hono'
import { isInlineType } from '../../../src/domains/products/files'
import { authenticate } from '../../auth/authenticate'
import { authorize } from '../../auth/authorize'
import type { Services } from '../../context'
import type { AppEnv } from '../../http-env'
import { productDocFile } from './docs'
import { fieldFile } from './field-files'
import { disposition } from './file-types'

export const notFoundBody = { detail: { message: 'file not found', code: 'NOT_FOUND' } }

/**
 * The headers of a served product file: its checked type, its name, shown inline (PDF, images,
 * plain text) or downloaded (office files, CSV), never sniffed, revalidated on each use (a
 * replaced document keeps its URL).
 */
export function fileResponse(file: Blob, contentType: string, name: string) {
  return new Response(file, {
    headers: {
      'content-type': contentType,
      'content-disposition': disposition(isInlineType(contentType) ? 'inline' : 'attachment', name),
      'content-length': String(file.size),
      'cache-control': 'private, no-cache',
      'x-content-type-options': 'nosniff',
    },
  })
}

/** Product documents and custom field files for signed-in users (before the generic `/media/*`). */
export function mountProductFiles(app: Hono<AppEnv>, svc: Services) {
  app.get('/media/product/:key/doc/:name', authenticate(svc), async (c: Context<AppEnv>) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    const doc = await productDocFile(svc.db, c.req.param('key') ?? '', c.req.param('name') ?? '')
    const file = doc ? await svc.files.get(doc.storage_key) : null
    if (!doc || !file) return c.json(notFoundBody, 404)
    return fileResponse(file, doc.content_type, doc.name)
  })
  app.get('/media/product/:key/files/:field/:name', authenticate(svc), async (c: Context<AppEnv>) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    const name = c.req.param('name') ?? ''
    const found = await fieldFile(svc, c.req.param('key') ?? '', c.req.param('field') ?? '', name)
    if (!found) return c.json(notFoundBody, 404)
    return fileResponse(found.file, found.contentType, name)
  })
}
