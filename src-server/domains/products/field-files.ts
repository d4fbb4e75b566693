import { isStoredFileName } from '../../../src/domains/products/metadata'
import { DOC_TYPES, docExtension, MAX_FILES_PER_UPLOAD, productFieldFileUrl } from '../../../src/domains/products/files'
import type { FilesDeleteInput, FilesResult } from '../../../src/domains/products/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict } from '../../errors'
import { assertFieldsUsable } from '../form-fields/service'
import { appendEvent } from '../events/service'
import { checkedFileType, storedFileName } from './file-types'
import { fieldFilesFolder } from './metadata'
import { lockProduct } from './service'

/**
 * `POST files` / `DELETE files` (SPEC 7: bucket, object_key, subfolder, filenames, contents):
 * the files of a product's custom file fields. The mapping:
 * - bucket 'product' (the only one so far)
 * - object_key = the product key
 * - subfolder  = the key of a form field of type `files`
 * - contents   = the files (multipart, the field repeated once per file)
 * - filenames  = optional names for the files, in the same order (else each file's own name)
 * Each file is stored as `products/<product>/fields/<field>/<name>` where <name> is reduced to a
 * safe segment and made unique in the folder (`photo.jpg`, `photo-2.jpg` ...). The answer lists
 * the stored names: they are what the field's metadata value holds (saved with PUT product).
 * Types and size follow the document rules. Files are served at
 * `/media/product/{key}/files/{field}/{name}`.
 */

export type FilesUpload = {
  bucket: 'product'
  object_key: string
  subfolder: string
  filenames?: string | string[]
  contents: File | File[]
}

const asList = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x])

async function checkedFilesField(db: Db, fieldKey: string, allowArchived: boolean) {
  const key = fieldKey.toLowerCase()
  await assertFieldsUsable(db, [key], allowArchived ? new Set([key]) : new Set())
  const field = await db.selectFrom('form_fields').select(['id', 'name', 'type']).where('id', '=', key).executeTakeFirstOrThrow()
  if (field.type !== 'files') throw badRequest('INVALID_INPUT', `subfolder: the form field "${field.name}" is not a files field`)
  return field
}

/** A name not yet used in the folder: `name.ext`, `name-2.ext`, `name-3.ext` ... */
async function freeName(svc: Services, folder: string, name: string, taken: Set<string>): Promise<string> {
  const dot = name.lastIndexOf('.')
  const stem = dot > 0 ? name.slice(0, dot) : name
  const ext = dot > 0 ? name.slice(dot) : ''
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? name : `${stem.slice(0, 95)}-${n}${ext}`
    if (taken.has(candidate)) continue
    if (!(await svc.files.get(`${folder}/${candidate}`))) return candidate
  }
  throw badRequest('INVALID_INPUT', 'too many files with this name')
}

export async function uploadFieldFiles(svc: Services, actor: Actor, input: FilesUpload): Promise<FilesResult> {
  const contents = asList(input.contents)
  const names = asList(input.filenames)
  if (contents.length === 0) throw badRequest('INVALID_INPUT', 'contents: at least one file')
  if (contents.length > MAX_FILES_PER_UPLOAD) throw badRequest('INVALID_INPUT', `contents: at most ${MAX_FILES_PER_UPLOAD} files at once`)
  if (names.length > 0 && names.length !== contents.length) throw badRequest('INVALID_INPUT', 'filenames: one name per file in contents')
  if (!isUuid(input.object_key)) throw badRequest('INVALID_INPUT', 'object_key must be a product key')
  if (!isUuid(input.subfolder)) throw badRequest('INVALID_INPUT', 'subfolder must be a form field key')
  const productId = input.object_key.toLowerCase()
  const fieldId = input.subfolder.toLowerCase()
  // Check everything before writing anything.
  const product = await svc.db.transaction().execute(async (trx) => {
    const p = await lockProduct(trx, productId)
    await checkedFilesField(trx, fieldId, p.metadata.some((m) => m.custom_field_key === fieldId))
    return p
  })
  const files: { name: string; bytes: Uint8Array; contentType: string }[] = []
  for (const [i, file] of contents.entries()) {
    const name = storedFileName(names[i] ?? file.name)
    const bytes = new Uint8Array(await file.arrayBuffer())
    const type = checkedFileType(name, bytes)
    files.push({ name, bytes, contentType: type.contentType })
  }
  const folder = fieldFilesFolder(productId, fieldId)
  const taken = new Set<string>()
  for (const f of files) {
    f.name = await freeName(svc, folder, f.name, taken)
    taken.add(f.name)
  }
  const written: string[] = []
  const now = svc.clock.now()
  try {
    for (const f of files) {
      await svc.files.put(`${folder}/${f.name}`, f.bytes)
      written.push(`${folder}/${f.name}`)
    }
    await svc.db.transaction().execute(async (trx) => {
      await lockProduct(trx, productId)
      await trx.updateTable('products').set({ updated_at: now }).where('id', '=', productId).execute()
      await appendEvent(
        trx,
        actor,
        {
          event_type: 'PRODUCT_FILES_UPLOADED',
          subject_type: 'product',
          subject_key: productId,
          data: { code: product.code, custom_field_key: fieldId, filenames: files.map((f) => f.name), sizes: files.map((f) => f.bytes.byteLength) },
        },
        now,
      )
    })
  } catch (e) {
    for (const key of written) await svc.files.delete(key).catch(() => {})
    throw e
  }
  const stored = files.map((f) => f.name)
  return { bucket: 'product', object_key: productId, subfolder: fieldId, filenames: stored, urls: stored.map((n) => productFieldFileUrl(productId, fieldId, n)) }
}

/**
 * Removes stored files of a field. A name the product's saved metadata still lists is refused
 * (409 FILE_IN_USE): save the metadata without it first. Names that are not there are ignored.
 */
export async function deleteFieldFiles(svc: Services, actor: Actor, input: FilesDeleteInput): Promise<FilesResult> {
  const bad = input.filenames.find((n) => !isStoredFileName(n))
  if (bad !== undefined) throw badRequest('INVALID_INPUT', `filenames: "${bad}" is not a stored file name`)
  const productId = input.object_key.toLowerCase()
  const fieldId = input.subfolder.toLowerCase()
  const folder = fieldFilesFolder(productId, fieldId)
  const names = [...new Set(input.filenames)]
  const now = svc.clock.now()
  const removed = await svc.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productId)
    const value = product.metadata.find((m) => m.custom_field_key === fieldId)?.value
    const inUse = names.filter((n) => Array.isArray(value) && value.includes(n))
    if (inUse.length) throw conflict('FILE_IN_USE', `still listed in the product's metadata: ${inUse.join(', ')}`, { filenames: inUse })
    const present: string[] = []
    for (const n of names) if (await svc.files.get(`${folder}/${n}`)) present.push(n)
    if (present.length === 0) return present
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', productId).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'PRODUCT_FILES_DELETED', subject_type: 'product', subject_key: productId, data: { code: product.code, custom_field_key: fieldId, filenames: present } },
      now,
    )
    return present
  })
  for (const n of removed) await svc.files.delete(`${folder}/${n}`).catch(() => {})
  return { bucket: 'product', object_key: productId, subfolder: fieldId, filenames: removed, urls: [] }
}

/** A stored field file and its type (from the allowlisted extension), for serving it. */
export async function fieldFile(svc: Services, productKey: string, fieldKey: string, name: string) {
  if (!isUuid(productKey) || !isUuid(fieldKey) || !isStoredFileName(name)) return null
  const ext = docExtension(name)
  if (!ext) return null
  const file = await svc.files.get(`${fieldFilesFolder(productKey.toLowerCase(), fieldKey.toLowerCase())}/${name}`)
  return file ? { file, contentType: DOC_TYPES[ext] as string } : null
}
