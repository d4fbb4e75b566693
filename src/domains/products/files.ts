/**
 * Product documents (`POST product/{key}/doc`) and the files of custom file fields
 * (`POST files`): which types are allowed, size limits and where the files are served.
 *
 * Types are chosen by extension from this allowlist and then checked against the file's own
 * bytes (PDF signature, decodable image, ZIP container for OOXML/ODF, OLE container for legacy
 * Office files, UTF-8 text without NUL bytes for txt/csv). Nothing else is accepted.
 */
export const MAX_DOC_BYTES = 25 * 1024 * 1024

export const DOC_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
} as const
export type DocExtension = keyof typeof DOC_TYPES

/** For a file input's `accept`: a hint only, the server checks the bytes. */
export const DOC_ACCEPT = Object.keys(DOC_TYPES)
  .map((e) => `.${e}`)
  .join(',')

/** The extension of a name, lower case, when it is on the allowlist. */
export function docExtension(name: string): DocExtension | null {
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return null
  const ext = name.slice(dot + 1).toLowerCase()
  return ext in DOC_TYPES ? (ext as DocExtension) : null
}

/** Shown in the browser (others are downloaded). */
export const isInlineType = (contentType: string) => contentType === 'application/pdf' || contentType.startsWith('image/') || contentType.startsWith('text/plain')

/**
 * `POST files` (SPEC 7): the buckets there are. 'product': object_key = product key, subfolder =
 * form field key (a product's custom file field). 'batch': object_key = batch key, subfolder =
 * form field key (a files field of a form step, uploaded by the operator running the batch).
 * `DELETE files` takes 'product' only: a batch's files are part of its production record.
 */
export const FILE_BUCKETS = ['product', 'batch'] as const
export const DELETABLE_FILE_BUCKETS = ['product'] as const
export const MAX_FILES_PER_UPLOAD = 20
/** One `POST files` request at most (each file at most MAX_DOC_BYTES). */
export const MAX_FILES_UPLOAD_BYTES = 100 * 1024 * 1024

/** Where a product document is served (signed-in users). */
export const productDocUrl = (productKey: string, name: string) => `/media/product/${productKey}/doc/${encodeURIComponent(name)}`

/** Where a file of a custom file field of a product is served (signed-in users). */
export const productFieldFileUrl = (productKey: string, fieldKey: string, name: string) =>
  `/media/product/${productKey}/files/${fieldKey}/${encodeURIComponent(name)}`

/** Where a file of a form step's files field is served (signed-in users). */
export const batchFieldFileUrl = (batchKey: string, fieldKey: string, name: string) =>
  `/media/batch/${batchKey}/files/${fieldKey}/${encodeURIComponent(name)}`
