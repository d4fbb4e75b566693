import { isStoredFileName } from '../../../src/domains/products/metadata'
import { hasScope } from '../../../src/auth/scopes'
import { DOC_TYPES, docExtension, productFieldFileUrl } from '../../../src/domains/products/files'
import type { FilesDeleteInput, FilesResult } from '../../../src/domains/products/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, forbidden } from '../../errors'
import { assertFieldsUsable } from '../form-fields/service'
import { appendEvent } from '../events/service'
import { fieldFilesFolder } from './metadata'
import { PRODUCT_WRITERS } from './access'
import { lockProduct } from './service'
import { checkedUploads, storeInFolder } from './stored-files'
import { invalidField } from '../../input-issues'

/**
 * `POST files` / `DELETE files` (SPEC 7: bucket, object_key, subfolder, filenames, contents):
 * the files of a product's custom file fields. The mapping:
 * - bucket 'product' (bucket 'batch', the files of a form step, is execution/batch-files.ts)
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

async function checkedFilesField(db: Db, fieldKey: string, allowArchived: boolean) {
  const key = fieldKey.toLowerCase()
  await assertFieldsUsable(db, [key], allowArchived ? new Set([key]) : new Set())
  const field = await db.selectFrom('form_fields').select(['id', 'name', 'type']).where('id', '=', key).executeTakeFirstOrThrow()
  if (field.type !== 'files') throw invalidField({ path: 'subfolder', kind: 'not_allowed', message: `the form field "${field.name}" is not a files field` })
  return field
}

export async function uploadFieldFiles(svc: Services, actor: Actor, input: FilesUpload): Promise<FilesResult> {
  if (!PRODUCT_WRITERS.some((s) => hasScope(actor.scope, s))) throw forbidden('NOT_AUTHORISED', 'not authorised')
  if (!isUuid(input.object_key)) throw invalidField({ path: 'object_key', kind: 'format', message: 'must be a product key' })
  if (!isUuid(input.subfolder)) throw invalidField({ path: 'subfolder', kind: 'format', message: 'must be a form field key' })
  const productId = input.object_key.toLowerCase()
  const fieldId = input.subfolder.toLowerCase()
  // Check everything before writing anything.
  const files = await checkedUploads(input.contents, input.filenames)
  const product = await svc.db.transaction().execute(async (trx) => {
    const p = await lockProduct(trx, productId)
    await checkedFilesField(trx, fieldId, p.metadata.some((m) => m.custom_field_key === fieldId))
    return p
  })
  const stored = await storeInFolder(svc, fieldFilesFolder(productId, fieldId), files)
  const now = svc.clock.now()
  try {
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
          data: { code: product.code, custom_field_key: fieldId, filenames: stored.names, sizes: files.map((f) => f.bytes.byteLength) },
        },
        now,
      )
    })
  } catch (e) {
    await stored.discard()
    throw e
  }
  return { bucket: 'product', object_key: productId, subfolder: fieldId, filenames: stored.names, urls: stored.names.map((n) => productFieldFileUrl(productId, fieldId, n)) }
}

/**
 * Removes stored files of a field. A name the product's saved metadata still lists is refused
 * (409 FILE_IN_USE): save the metadata without it first. Names that are not there are ignored.
 */
export async function deleteFieldFiles(svc: Services, actor: Actor, input: FilesDeleteInput): Promise<FilesResult> {
  const bad = input.filenames.find((n) => !isStoredFileName(n))
  if (bad !== undefined) throw invalidField({ path: 'filenames', kind: 'invalid', message: `"${bad}" is not a stored file name` })
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
