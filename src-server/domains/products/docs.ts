import { MAX_DOC_BYTES } from '../../../src/domains/products/files'
import type { ProductRow } from '../../../src/domains/products/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { checkedFileType, safeDocName } from './file-types'
import { getProduct, lockProduct } from './service'

/**
 * Product documents (SPEC 3 Product `docs`, 5 "a document with the same name asks confirmation
 * to replace it", 7 `POST product/{key}/doc` multipart `new_doc`, `DELETE product/{key}/doc/{name}`).
 * Names are unique per product; the file lives at `products/<product>/docs/<uuid>.<ext>` and is
 * served at `/media/product/{key}/doc/{name}`. A refused upload writes nothing (no row, no
 * event, no file); deleting a document removes its file.
 */

const docExists = (name: string) => conflict('DOC_EXISTS', `a document named "${name}" already exists: send replace=true to replace it`, { name })

export async function addProductDoc(svc: Services, actor: Actor, key: string, file: File, replace = false): Promise<ProductRow> {
  if (!isUuid(key)) throw notFound('NOT_FOUND', 'product not found')
  if (file.size > MAX_DOC_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'the file is larger than 25 MiB')
  const name = safeDocName(file.name)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const type = checkedFileType(name, bytes)
  const now = svc.clock.now()
  const productId = key.toLowerCase()
  const storageKey = `products/${productId}/docs/${crypto.randomUUID()}.${type.ext}`
  let previous: string | null = null
  // Cheap refusals before writing any file.
  await svc.db.transaction().execute(async (trx) => {
    await lockProduct(trx, key)
    const existing = await trx.selectFrom('product_docs').select('id').where('product_id', '=', key).where('name', '=', name).executeTakeFirst()
    if (existing && !replace) throw docExists(name)
  })
  await svc.files.put(storageKey, bytes)
  try {
    previous = await svc.db.transaction().execute(async (trx) => {
      const product = await lockProduct(trx, key)
      const old = await trx
        .selectFrom('product_docs')
        .select(['id', 'storage_key'])
        .where('product_id', '=', key)
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst()
      if (old && !replace) throw docExists(name)
      const values = { storage_key: storageKey, content_type: type.contentType, size: bytes.byteLength, uploaded_by: actor.userId, uploaded_at: now }
      if (old) await trx.updateTable('product_docs').set(values).where('id', '=', old.id).execute()
      else await trx.insertInto('product_docs').values({ product_id: product.id, name, ...values }).execute()
      await trx.updateTable('products').set({ updated_at: now }).where('id', '=', key).execute()
      await appendEvent(
        trx,
        actor,
        {
          event_type: old ? 'PRODUCT_DOC_REPLACED' : 'PRODUCT_DOC_ADDED',
          subject_type: 'product',
          subject_key: product.id,
          data: { code: product.code, name, content_type: type.contentType, size: bytes.byteLength },
        },
        now,
      )
      return old?.storage_key ?? null
    })
  } catch (e) {
    await svc.files.delete(storageKey).catch(() => {})
    if (isUniqueViolation(e)) throw docExists(name)
    throw e
  }
  if (previous) await svc.files.delete(previous).catch(() => {})
  return getProduct(svc, key)
}

/** `DELETE product/{key}/doc/{name}`: the row goes, then the file. Event PRODUCT_DOC_DELETED. */
export async function deleteProductDoc(svc: Services, actor: Actor, key: string, name: string): Promise<ProductRow> {
  const now = svc.clock.now()
  const storageKey = await svc.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, key)
    const doc = await trx
      .deleteFrom('product_docs')
      .where('product_id', '=', product.id)
      .where('name', '=', name)
      .returning(['storage_key', 'content_type', 'size'])
      .executeTakeFirst()
    if (!doc) throw notFound('NOT_FOUND', 'document not found')
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', product.id).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'PRODUCT_DOC_DELETED', subject_type: 'product', subject_key: product.id, data: { code: product.code, name } },
      now,
    )
    return doc.storage_key
  })
  await svc.files.delete(storageKey).catch(() => {})
  return getProduct(svc, key)
}

/** Where a document is stored, for serving it. */
export async function productDocFile(db: Db, key: string, name: string) {
  if (!isUuid(key)) return undefined
  return db
    .selectFrom('product_docs')
    .select(['storage_key', 'name', 'content_type', 'size'])
    .where('product_id', '=', key)
    .where('name', '=', name)
    .executeTakeFirst()
}
