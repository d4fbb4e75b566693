import * as v from 'valibot'
import { MAX_MEDIA_BYTES, MediaRow } from '../../../src/domains/process/media'
import { Key } from '../../../src/valibot-helpers'
import { query, restOnly, useCases } from '../../api/use-case'
import * as media from './service'

export const mediaApi = useCases('media', {
  byKeys: query({
    summary: 'Names and types of the media that steps refer to (unknown keys are left out)',
    access: { scope: 'signed-in' },
    input: v.object({ keys: v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(1000)) }),
    response: v.array(MediaRow),
    run: (ctx, input) => media.listMedia(ctx, input.keys),
  }),
  create: restOnly({
    summary:
      'Upload a file for steps (multipart field `file`: PNG, JPEG, WebP or GIF image up to 10 MiB, PDF, MP4 or WebM video up to 25 MiB); detail._key is the media key, the file is served at /media/{key}',
    access: { scope: ['admin', 'library'] },
    input: v.object({ file: v.file('file must be a file') }),
    response: MediaRow,
    rest: { method: 'post', path: '/media/create', multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 }, status: 201 },
    run: (ctx, input) => media.createMedia(ctx, ctx.actor, input.file),
  }),
  get: restOnly({
    summary: 'One media item: file name, content type, size and URL',
    access: { scope: 'signed-in' },
    input: v.object({ key: Key }),
    response: MediaRow,
    rest: { method: 'get', path: '/media/{key}' },
    run: (ctx, input) => media.getMedia(ctx, input.key),
  }),
})
