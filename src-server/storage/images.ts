import { imageSize } from 'image-size'
import { badRequest } from '../errors'

const TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const
export type ImageType = keyof typeof TYPES
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

export type InspectedImage = { type: ImageType; width: number; height: number; contentType: string }

/** Reads the image's own header (never the client's content type) and refuses anything else. */
export function inspectImage(bytes: Uint8Array): InspectedImage {
  if (bytes.byteLength === 0) throw badRequest('INVALID_IMAGE', 'the file is empty')
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw badRequest('INVALID_IMAGE', 'the image is larger than 10 MiB')
  let size: ReturnType<typeof imageSize>
  try {
    size = imageSize(bytes)
  } catch {
    throw badRequest('INVALID_IMAGE', 'the file is not an image')
  }
  const type = (size.type === 'jpeg' ? 'jpg' : size.type) as string
  if (!(type in TYPES) || !size.width || !size.height) {
    throw badRequest('INVALID_IMAGE', 'images must be PNG, JPEG, WebP or GIF')
  }
  return { type: type as ImageType, width: size.width, height: size.height, contentType: TYPES[type as ImageType] }
}
