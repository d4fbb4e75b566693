import type { Context, Hono } from 'hono'
import { authenticate } from '../../auth/authenticate'
import { authorize } from '../../auth/authorize'
import type { Services } from '../../context'
import type { AppEnv } from '../../http-env'
import { fileResponse, notFoundBody } from '../products/http'
import { batchFieldFile } from './batch-files'

/** Files of form steps (bucket 'batch') for signed-in users (before the generic `/media/*`). */
export function mountBatchFiles(app: Hono<AppEnv>, svc: Services) {
  app.get('/media/batch/:batch/files/:field/:name', authenticate(svc), async (c: Context<AppEnv>) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    const name = c.req.param('name') ?? ''
    const found = await batchFieldFile(svc, c.req.param('batch') ?? '', c.req.param('field') ?? '', name)
    if (!found) return c.json(notFoundBody, 404)
    return fileResponse(found.file, found.contentType, name)
  })
}
