import * as v from 'valibot'

/**
 * Media: files attached to steps (operation default steps, product phase steps). Uploaded once
 * with `POST media/create`, referenced by key, served at `/media/{key}` to signed-in users.
 */
export const MAX_MEDIA_BYTES = 25 * 1024 * 1024
/** Images are decoded on upload (src-server/storage/images.ts) and may not exceed 10 MiB. */
export const MAX_MEDIA_IMAGE_BYTES = 10 * 1024 * 1024

/** What uploads may hold, recognised from the bytes (never from the name or the client's type). */
export const MEDIA_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
} as const
export type MediaContentType = keyof typeof MEDIA_TYPES

/** For a file input's `accept`: a hint only, the server decides from the bytes. */
export const MEDIA_ACCEPT = [...Object.keys(MEDIA_TYPES), '.png', '.jpg', '.jpeg', '.webp', '.gif', '.pdf', '.mp4', '.webm'].join(',')

export const isImageType = (contentType: string) => contentType.startsWith('image/')

export const MediaRow = v.object({
  _key: v.string(),
  filename: v.string(),
  content_type: v.string(),
  size: v.number(),
  /** `/media/{key}`: the file itself, for signed-in users. */
  url: v.string(),
  created_at: v.number(),
})
export type MediaRow = v.InferOutput<typeof MediaRow>

export const mediaUrl = (key: string) => `/media/${key}`

/** `POST step/{key}/media`: the multipart field holding the file (SPEC 7). */
export const STEP_MEDIA_FIELD = 'media_file'

/**
 * `/media/step/{step_key}/{filename}`: a step's media by its file name (SPEC 7), for signed-in
 * users. A step's media names are unique when attached through `POST step/{key}/media`; where
 * two attached media share a name, the first in the step's order is meant.
 */
export const stepMediaUrl = (stepKey: string, filename: string) => `/media/step/${encodeURIComponent(stepKey)}/${encodeURIComponent(filename)}`

/** A media item of a step: the media row plus its address under the step. */
export const StepMediaRow = v.object({ ...MediaRow.entries, step_url: v.string() })
export type StepMediaRow = v.InferOutput<typeof StepMediaRow>
