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
