import { batchFieldFileUrl, DOC_TYPES, docExtension } from '../../../src/domains/products/files'
import type { FilesResult } from '../../../src/domains/products/schemas'
import { isStoredFileName } from '../../../src/domains/products/metadata'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict } from '../../errors'
import { appendEvent } from '../events/service'
import { checkedUploads, storeInFolder } from '../products/stored-files'
import { batchPlace, lockBatch, lockJob, phaseInfo } from './queries'
import { assertRunningOperator, batchNotFound } from './shared'
import { invalidField } from '../../input-issues'

/**
 * `POST files` with bucket 'batch': the files of a form step's `files` field, uploaded by the
 * operator running the batch while it is open (object_key = batch key, subfolder = field key).
 * They are stored as `batches/<batch>/fields/<field>/<name>`; the step's form data then lists the
 * stored names (saved with the step). Served at `/media/batch/{batch}/files/{field}/{name}`.
 */
export type BatchFilesUpload = { object_key: string; subfolder: string; filenames?: string | string[]; contents: File | File[] }

const batchFilesFolder = (batchId: string, fieldId: string) => `batches/${batchId}/fields/${fieldId}`

/** The batch is open, its job runs for this operator, and the field is a files field of one of its steps. */
async function assertUploadAllowed(db: Db, actor: Actor, batchId: string, fieldId: string) {
  // Lock order of the execution engine: the job row, then its batch (completeStep does the same).
  const place = await batchPlace(db, batchId)
  if (!place) throw batchNotFound()
  const job = (await lockJob(db, place.job_id))!
  assertRunningOperator(actor, job)
  const batch = (await lockBatch(db, batchId))!
  if (batch.status !== 'open') throw conflict('BATCH_NOT_OPEN', 'the batch is not open', { batch_key: batch.id })
  const phase = await phaseInfo(db, job.phase_id)
  if (!phase.steps.some((s) => s.fields.includes(fieldId))) throw badRequest('UNKNOWN_FIELD', 'subfolder: no form step of this batch has this field', { field_key: fieldId })
  const field = await db.selectFrom('form_fields').select(['name', 'type']).where('id', '=', fieldId).executeTakeFirstOrThrow()
  if (field.type !== 'files') throw invalidField({ path: 'subfolder', kind: 'not_allowed', message: `the form field "${field.name}" is not a files field` })
  return job
}

export async function uploadBatchFieldFiles(svc: Services, actor: Actor, input: BatchFilesUpload): Promise<FilesResult> {
  if (!isUuid(input.object_key)) throw invalidField({ path: 'object_key', kind: 'format', message: 'must be a batch key' })
  if (!isUuid(input.subfolder)) throw invalidField({ path: 'subfolder', kind: 'format', message: 'must be a form field key' })
  const batchId = input.object_key.toLowerCase()
  const fieldId = input.subfolder.toLowerCase()
  const files = await checkedUploads(input.contents, input.filenames)
  await svc.db.transaction().execute((trx) => assertUploadAllowed(trx, actor, batchId, fieldId))
  const stored = await storeInFolder(svc, batchFilesFolder(batchId, fieldId), files)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      // Again under lock: the batch may have completed while the files were written.
      const job = await assertUploadAllowed(trx, actor, batchId, fieldId)
      await appendEvent(
        trx,
        actor,
        {
          event_type: 'BATCH_FILES_UPLOADED',
          subject_type: 'job',
          subject_key: job.id,
          data: { batch_key: batchId, field_key: fieldId, filenames: stored.names, sizes: files.map((f) => f.bytes.byteLength) },
        },
        now,
      )
    })
  } catch (e) {
    await stored.discard()
    throw e
  }
  return { bucket: 'batch', object_key: batchId, subfolder: fieldId, filenames: stored.names, urls: stored.names.map((n) => batchFieldFileUrl(batchId, fieldId, n)) }
}

/** A stored file of a batch's files field and its type, for serving it. */
export async function batchFieldFile(svc: Services, batchKey: string, fieldKey: string, name: string) {
  if (!isUuid(batchKey) || !isUuid(fieldKey) || !isStoredFileName(name)) return null
  const ext = docExtension(name)
  if (!ext) return null
  const file = await svc.files.get(`${batchFilesFolder(batchKey.toLowerCase(), fieldKey.toLowerCase())}/${name}`)
  return file ? { file, contentType: DOC_TYPES[ext] as string } : null
}
