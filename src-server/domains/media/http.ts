import type { Context } from 'hono'
import { authorize } from '../../auth/authorize'
import type { Services } from '../../context'
import type { AppEnv } from '../../http-env'
import { inlineDisposition } from './files'
import { mediaFileOf } from './service'

/** The path of one media file: `/media/{key}` with the media's key (a UUID). */
export const MEDIA_FILE_PATH = '/media/:key{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}'

const notFoundBody = { detail: { message: 'file not found', code: 'NOT_FOUND' } }

/** One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) within `size`, or null when absent or unusable. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header?.match(/^bytes=(\d*)-(\d*)$/)
  if (!m || (m[1] === '' && m[2] === '')) return null
  let start: number
  let end: number
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]))
    end = size - 1
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  }
  if (start > end || start >= size) return 'unsatisfiable'
  return { start, end }
}

/**
 * Serves a media file to signed-in users with its recognised type, shown inline under its name;
 * videos can seek (single byte ranges). The bytes of a key never change, so browsers may keep them.
 */
export function serveMediaFile(svc: Services) {
  return async (c: Context<AppEnv>) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    return sendMediaFile(svc, c, c.req.param('key') ?? '')
  }
}

/**
 * The response for one media file by key (the caller has checked access): headers, ranges, 404.
 * `cacheControl`: a path whose file may change (a step's media by name) is kept for less time.
 */
export async function sendMediaFile(svc: Services, c: Context<AppEnv>, key: string, cacheControl = 'private, max-age=86400'): Promise<Response> {
  const media = await mediaFileOf(svc.db, key)
  const file = media ? await svc.files.get(media.storage_key) : null
  if (!media || !file) return c.json(notFoundBody, 404)
  const headers: Record<string, string> = {
    'content-type': media.content_type,
    'content-disposition': inlineDisposition(media.filename),
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    'accept-ranges': 'bytes',
  }
  const range = byteRange(c.req.header('range'), file.size)
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${file.size}` } })
  if (range) {
    return new Response(file.slice(range.start, range.end + 1), {
      status: 206,
      headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${file.size}`, 'content-length': String(range.end - range.start + 1) },
    })
  }
  return new Response(file, { headers: { ...headers, 'content-length': String(file.size) } })
}
