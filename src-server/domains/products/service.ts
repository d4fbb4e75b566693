import { sql } from 'kysely'
import type { MetadataItem, ProductInput, ProductListInput, ProductRow } from '../../../src/domains/products/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors'
import { inspectImage } from '../../storage/images'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { checkedMetadata } from './metadata'
import { productCountQuery, productListQuery, selectProductRows, withDocUrls } from './queries'
import { invalidField } from '../../input-issues'

/**
 * The product library (SPEC 3 Product, 4 "active or inactive, reactivated; moved to trash and
 * restored", 7 Products). Every change appends an event in its transaction:
 * PRODUCT_CREATED, PRODUCT_UPDATED, PRODUCT_DEACTIVATED, PRODUCT_REACTIVATED, PRODUCT_TRASHED,
 * PRODUCT_RESTORED, PRODUCT_IMAGE_CHANGED, PRODUCT_IMAGE_REMOVED (documents, files and tags in
 * their own modules). A product in the trash can be read and restored, not changed
 * (409 PRODUCT_IN_TRASH).
 */

export const productNotFound = () => notFound('NOT_FOUND', 'product not found')
const codeTaken = () => conflict('PRODUCT_CODE_TAKEN', 'product code already in use')

function checkedCode(code: string): string {
  const trimmed = code.trim()
  if (!trimmed) throw badRequest('PRODUCT_CODE_REQUIRED', 'product code required')
  return trimmed
}

/** Codes are unique whatever the letter case (index products_code_unique on lower(code)). */
async function assertCodeFree(db: Db, code: string, exceptId?: string) {
  let q = db.selectFrom('products').select('id').where(sql<string>`lower(code)`, '=', code.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw codeTaken()
}

/**
 * Locks a product row for a change (inside a transaction). Refuses unknown keys (404) and,
 * unless `allowTrashed`, products in the trash (409 PRODUCT_IN_TRASH). Other product modules
 * (documents, files, tags, process, bom) use it so a change never lands on a trashed product.
 */
export async function lockProduct(db: Db, key: string, opts: { allowTrashed?: boolean } = {}) {
  if (!isUuid(key)) throw productNotFound()
  const row = await db
    .selectFrom('products')
    .select(['id', 'code', 'description', 'active', 'trashed_at', 'notes', 'minimum_order', 'technical_batch', 'image_path', 'metadata'])
    .where('id', '=', key)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw productNotFound()
  if (row.trashed_at && !opts.allowTrashed) throw conflict('PRODUCT_IN_TRASH', 'the product is in the trash: restore it first')
  return row
}

export async function listProducts(svc: Services, opts: ProductListInput = {}) {
  const rows = await productListQuery(svc.db, opts).execute()
  let total: number
  if (rows.length > 0) total = Number(rows[0]!.total)
  else if ((opts.page ?? 1) > 1) total = (await productCountQuery(svc.db, opts).executeTakeFirstOrThrow()).n
  else total = 0
  return { rows: rows.map(({ total: _, ...r }) => r), total }
}

export async function getProduct(svc: Pick<Services, 'db'>, key: string): Promise<ProductRow> {
  const row = isUuid(key) ? await selectProductRows(svc.db).where('p.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw productNotFound()
  return withDocUrls(row)
}

/** `POST product`: code required (PRODUCT_CODE_REQUIRED) and unique (409 PRODUCT_CODE_TAKEN); event PRODUCT_CREATED. */
export async function createProduct(svc: Services, actor: Actor, input: ProductInput): Promise<ProductRow> {
  const code = checkedCode(input.code)
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, code)
      const metadata = await checkedMetadata(trx, svc.files, null, input.metadata ?? [])
      const { id } = await trx
        .insertInto('products')
        .values({
          code,
          description: input.description ?? '',
          notes: input.notes ?? '',
          minimum_order: input.minimum_order ?? null,
          technical_batch: input.technical_batch ?? null,
          metadata: JSON.stringify(metadata),
          print_templates: '[]',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(
        trx,
        actor,
        { event_type: 'PRODUCT_CREATED', subject_type: 'product', subject_key: id, data: { code, description: input.description ?? '' } },
        now,
      )
      return id
    })
    return getProduct(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * `PUT product/{key}`: the home fields (code, description, notes, minimum order, technical batch,
 * metadata). Fields left out keep their value. Event PRODUCT_UPDATED naming what changed;
 * nothing changed, nothing written.
 */
export async function updateProduct(svc: Services, actor: Actor, key: string, input: ProductInput): Promise<ProductRow> {
  const code = checkedCode(input.code)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await lockProduct(trx, key)
      const set: Record<string, unknown> = {}
      const changed: string[] = []
      if (code !== old.code) {
        if (code.toLowerCase() !== old.code.toLowerCase()) await assertCodeFree(trx, code, key)
        set.code = code
        changed.push('code')
      }
      for (const name of ['description', 'notes', 'minimum_order', 'technical_batch'] as const) {
        const value = input[name]
        if (value !== undefined && value !== old[name]) {
          set[name] = value
          changed.push(name)
        }
      }
      if (input.metadata !== undefined) {
        const metadata: MetadataItem[] = await checkedMetadata(trx, svc.files, old.id, input.metadata, old.metadata)
        if (!sameJson(metadata, old.metadata)) {
          set.metadata = JSON.stringify(metadata)
          changed.push('metadata')
        }
      }
      if (changed.length === 0) return
      await trx.updateTable('products').set({ ...set, updated_at: now }).where('id', '=', key).execute()
      await appendEvent(
        trx,
        actor,
        { event_type: 'PRODUCT_UPDATED', subject_type: 'product', subject_key: key, data: editData(changesOf(old, set, changed), { code: (set.code as string) ?? old.code }) },
        now,
      )
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeTaken()
    throw e
  }
  return getProduct(svc, key)
}

/**
 * `PATCH product/{key}` with `active` and/or `trash`: deactivate / reactivate (events
 * PRODUCT_DEACTIVATED, PRODUCT_REACTIVATED), move to the trash / restore (PRODUCT_TRASHED,
 * PRODUCT_RESTORED). Asking for the state it already has changes nothing.
 */
export async function setProductState(svc: Services, actor: Actor, key: string, patch: { active?: boolean; trash?: boolean }): Promise<ProductRow> {
  if (patch.active === undefined && patch.trash === undefined) throw invalidField({ path: '', kind: 'required', message: 'give active and/or trash' })
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const old = await lockProduct(trx, key, { allowTrashed: true })
    const set: { active?: boolean; trashed_at?: Date | null } = {}
    const events: string[] = []
    const wasTrashed = old.trashed_at !== null
    // Restoring first, so "restore and reactivate" in one call is not refused as a trashed change.
    if (patch.trash !== undefined && patch.trash !== wasTrashed) {
      set.trashed_at = patch.trash ? now : null
      events.push(patch.trash ? 'PRODUCT_TRASHED' : 'PRODUCT_RESTORED')
    }
    if (patch.active !== undefined && patch.active !== old.active) {
      set.active = patch.active
      events.push(patch.active ? 'PRODUCT_REACTIVATED' : 'PRODUCT_DEACTIVATED')
    }
    if (events.length === 0) return
    await trx.updateTable('products').set({ ...set, updated_at: now }).where('id', '=', key).execute()
    for (const event_type of events) {
      await appendEvent(trx, actor, { event_type, subject_type: 'product', subject_key: key, data: { code: old.code } }, now)
    }
  })
  return getProduct(svc, key)
}

/**
 * `PUT product/{key}/image` (multipart `new_image`): the bytes must decode as a PNG, JPEG, WebP
 * or GIF image (never the client's type). The previous file goes once the new one is in.
 */
export async function setProductImage(svc: Services, actor: Actor, key: string, file: File): Promise<ProductRow> {
  if (!isUuid(key)) throw productNotFound()
  const bytes = new Uint8Array(await file.arrayBuffer())
  const image = inspectImage(bytes)
  const now = svc.clock.now()
  const storageKey = `products/${key.toLowerCase()}/image-${now.getTime()}-${crypto.randomUUID().slice(0, 8)}.${image.type}`
  let previous: string | null = null
  await svc.files.put(storageKey, bytes)
  try {
    previous = await svc.db.transaction().execute(async (trx) => {
      const old = await lockProduct(trx, key)
      await trx.updateTable('products').set({ image_path: storageKey, updated_at: now }).where('id', '=', key).execute()
      await appendEvent(
        trx,
        actor,
        {
          event_type: 'PRODUCT_IMAGE_CHANGED',
          subject_type: 'product',
          subject_key: key,
          data: editData(changesOf(old, { image_path: storageKey }), { code: old.code, type: image.type, width: image.width, height: image.height, bytes: bytes.byteLength }),
        },
        now,
      )
      return old.image_path
    })
  } catch (e) {
    await svc.files.delete(storageKey).catch(() => {})
    throw e
  }
  if (previous) await svc.files.delete(previous).catch(() => {})
  return getProduct(svc, key)
}

/** `DELETE product/{key}/image`: no image any more (nothing happens when there is none). */
export async function removeProductImage(svc: Services, actor: Actor, key: string): Promise<ProductRow> {
  const now = svc.clock.now()
  const previous = await svc.db.transaction().execute(async (trx) => {
    const old = await lockProduct(trx, key)
    if (!old.image_path) return null
    await trx.updateTable('products').set({ image_path: null, updated_at: now }).where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: 'PRODUCT_IMAGE_REMOVED', subject_type: 'product', subject_key: key, data: { code: old.code } }, now)
    return old.image_path
  })
  if (previous) await svc.files.delete(previous).catch(() => {})
  return getProduct(svc, key)
}
