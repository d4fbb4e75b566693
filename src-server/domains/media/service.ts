import { MAX_MEDIA_BYTES, type MediaRow } from '../../../src/domains/process/media'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, badRequest, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { checkedMediaType, safeFilenames } from './files'
import { selectMediaRows } from './queries'

/** What `createMedia` knows of the new media, for a caller that attaches it in the same transaction. */
export type NewMedia = { id: string; filename: string; content_type: string; size: number }

/**
 * `POST media/create`: stores one file for steps (images, PDF, MP4/WebM videos, recognised
 * from the bytes) and returns its row; `detail._key` is what steps refer to.
 * A refused upload writes nothing: no row, no event, no file. `attach` runs in the same
 * transaction (a product step taking the new media): when it throws, nothing is written either.
 */
export async function createMedia(svc: Services, actor: Actor, file: File, attach?: (trx: Db, media: NewMedia) => Promise<void>): Promise<MediaRow> {
  if (file.size > MAX_MEDIA_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'the file is larger than 25 MiB')
  const bytes = new Uint8Array(await file.arrayBuffer())
  const type = checkedMediaType(bytes)
  const names = safeFilenames(file.name, type)
  const id = crypto.randomUUID()
  const storageKey = `media/${id}/${names.stored}`
  await svc.files.put(storageKey, bytes)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('media')
        .values({ id, filename: names.display, content_type: type, size: bytes.byteLength, storage_key: storageKey, created_by: actor.userId, created_at: now })
        .execute()
      await appendEvent(
        trx,
        actor,
        { event_type: 'MEDIA_CREATED', subject_type: 'media', subject_key: id, data: { filename: names.display, content_type: type, size: bytes.byteLength } },
        now,
      )
      await attach?.(trx, { id, filename: names.display, content_type: type, size: bytes.byteLength })
    })
  } catch (e) {
    await svc.files.delete(storageKey)
    throw e
  }
  return getMedia(svc, id)
}

export async function getMedia(svc: Services, key: string): Promise<MediaRow> {
  const row = isUuid(key) ? await selectMediaRows(svc.db).where('m.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw notFound('NOT_FOUND', 'media not found')
  return row
}

/** Several media at once (the step editors show names and thumbnails); unknown keys are left out. */
export async function listMedia(svc: Services, keys: readonly string[]): Promise<MediaRow[]> {
  const ids = keys.filter(isUuid)
  if (ids.length === 0) return []
  return selectMediaRows(svc.db).where('m.id', 'in', ids).execute()
}

/** Steps may only refer to media that exist: 400 UNKNOWN_MEDIA naming the missing keys. */
export async function assertMediaExist(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return
  const found = new Set((await db.selectFrom('media').select('id').where('id', 'in', keys).execute()).map((r) => r.id))
  const missing = keys.filter((k) => !found.has(k))
  if (missing.length) throw badRequest('UNKNOWN_MEDIA', `unknown media: ${missing.join(', ')}`, { media: missing })
}

/** Where a media file is stored, for serving it. */
export async function mediaFileOf(db: Db, key: string) {
  if (!isUuid(key)) return undefined
  return db.selectFrom('media').select(['storage_key', 'filename', 'content_type', 'size']).where('id', '=', key).executeTakeFirst()
}
