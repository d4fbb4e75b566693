import * as v from 'valibot'
import { MAX_MEDIA_BYTES, MediaRow } from '../../../src/domains/process/media'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as media from './service'

const tag = 'media'

export const mediaRoutes = [
  route({
    method: 'post',
    path: '/media/create',
    tag,
    summary:
      'Upload a file for steps (multipart field `file`: PNG, JPEG, WebP or GIF image up to 10 MiB, PDF, MP4 or WebM video up to 25 MiB); detail._key is the media key, the file is served at /media/{key}',
    access: { scope: ['admin', 'library'] },
    multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 },
    body: v.object({ file: v.file('file must be a file') }),
    response: MediaRow,
    status: 201,
    handler: (ctx, { body }) => media.createMedia(ctx, ctx.actor!, body.file),
  }),
  route({
    method: 'get',
    path: '/media/{key}',
    tag,
    summary: 'One media item: file name, content type, size and URL',
    access: { scope: 'signed-in' },
    params: v.object({ key: Key }),
    response: MediaRow,
    handler: (ctx, { params }) => media.getMedia(ctx, params.key),
  }),
]
