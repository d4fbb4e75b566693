import type { Context } from 'hono'
import { type StepMediaRow, stepMediaUrl } from '../../../src/domains/process/media'
import { MAX_STEP_MEDIA, type Step } from '../../../src/domains/process/steps'
import { authorize } from '../../auth/authorize'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, notFound } from '../../errors'
import type { AppEnv } from '../../http-env'
import { appendEvent } from '../events/service'
import { sendMediaFile } from '../media/http'
import { selectMediaRows } from '../media/queries'
import { createMedia } from '../media/service'
import { lockProduct } from '../products/service'
import { phaseOfStep } from './queries'
import { invalidField } from '../../input-issues'

/**
 * The media of one product step, by the step's key (SPEC 7): list, upload-and-attach, detach by
 * file name, and the file at `/media/step/{key}/{filename}`. Step keys are unique across all
 * processes. Detaching never deletes the media: copied steps share their media.
 * Operation default steps are edited with their operation (admin), not here.
 */

const STEP_KEY = /^[A-Za-z0-9_-]{1,64}$/
const stepNotFound = () => notFound('NOT_FOUND', 'step not found')

type Found = { phaseId: string; productId: string; steps: Step[]; step: Step }

async function findStep(db: Db, stepKey: string, lock = false): Promise<Found | undefined> {
  if (!STEP_KEY.test(stepKey)) return undefined
  let q = phaseOfStep(db, stepKey)
  if (lock) q = q.forUpdate()
  const phase = await q.executeTakeFirst()
  const step = phase?.steps.find((s) => s._key === stepKey)
  return phase && step ? { phaseId: phase.id, productId: phase.product_id, steps: phase.steps, step } : undefined
}

/**
 * The step, for a change: its product locked first (the order process and bom saves lock in;
 * a product in the trash is read-only), then its phase.
 */
async function lockedStep(db: Db, stepKey: string): Promise<Found> {
  const seen = await findStep(db, stepKey)
  if (!seen) throw stepNotFound()
  await lockProduct(db, seen.productId)
  const found = await findStep(db, stepKey, true)
  if (!found) throw stepNotFound()
  return found
}

/** The step's media rows, in the step's order (media rows that vanished are left out). */
async function mediaOf(db: Db, stepKey: string, keys: readonly string[]): Promise<StepMediaRow[]> {
  if (keys.length === 0) return []
  const rows = await selectMediaRows(db).where('m.id', 'in', [...keys]).execute()
  const byKey = new Map(rows.map((r) => [r._key, r]))
  return keys.flatMap((k) => {
    const row = byKey.get(k)
    return row ? [{ ...row, step_url: stepMediaUrl(stepKey, row.filename) }] : []
  })
}

/** `GET step/{key}/media`. */
export async function listStepMedia(svc: Pick<Services, 'db'>, stepKey: string): Promise<StepMediaRow[]> {
  const found = await findStep(svc.db, stepKey)
  if (!found) throw stepNotFound()
  return mediaOf(svc.db, stepKey, found.step.media)
}

async function saveSteps(db: Db, phaseId: string, steps: Step[], now: Date) {
  await db.updateTable('product_phases').set({ steps: JSON.stringify(steps), updated_at: now }).where('id', '=', phaseId).execute()
}

/**
 * `POST step/{key}/media` (multipart `media_file`): the file becomes a media item (the admin
 * area's media rules: type from the bytes, size limits, safe names) attached at the end of the
 * step, in one transaction. A name already attached to the step is refused (409
 * STEP_MEDIA_NAME_TAKEN), so `/media/step/{key}/{filename}` names one file.
 */
export async function addStepMedia(svc: Services, actor: Actor, stepKey: string, file: File): Promise<StepMediaRow> {
  // Checked before the upload is stored; again under lock in the transaction.
  if (!(await findStep(svc.db, stepKey))) throw stepNotFound()
  const now = svc.clock.now()
  const row = await createMedia(svc, actor, file, async (trx, media) => {
    const found = await lockedStep(trx, stepKey)
    if (found.step.media.length >= MAX_STEP_MEDIA) throw invalidField({ path: 'media', kind: 'max_items', limit: MAX_STEP_MEDIA, message: `a step may have at most ${MAX_STEP_MEDIA} media` })
    const attached = await mediaOf(trx, stepKey, found.step.media)
    if (attached.some((m) => m.filename === media.filename)) {
      throw conflict('STEP_MEDIA_NAME_TAKEN', `a file named ${media.filename} is already attached to the step`, { filename: media.filename })
    }
    const steps = found.steps.map((s) => (s._key === stepKey ? { ...s, media: [...s.media, media.id] } : s))
    await saveSteps(trx, found.phaseId, steps, now)
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'STEP_MEDIA_ADDED',
        subject_type: 'product',
        subject_key: found.productId,
        data: { phase_key: found.phaseId, step_key: stepKey, media_key: media.id, filename: media.filename },
      },
      now,
    )
  })
  return { ...row, step_url: stepMediaUrl(stepKey, row.filename) }
}

/** `DELETE step/{key}/media/{filename}`: detaches the step's media of that name; answers what stays attached. */
export async function removeStepMedia(svc: Services, actor: Actor, stepKey: string, filename: string): Promise<StepMediaRow[]> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    const found = await lockedStep(trx, stepKey)
    const attached = await mediaOf(trx, stepKey, found.step.media)
    const target = attached.find((m) => m.filename === filename)
    if (!target) throw notFound('NOT_FOUND', `no file named ${filename} is attached to the step`)
    const media = found.step.media.filter((k) => k !== target._key)
    await saveSteps(trx, found.phaseId, found.steps.map((s) => (s._key === stepKey ? { ...s, media } : s)), now)
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'STEP_MEDIA_REMOVED',
        subject_type: 'product',
        subject_key: found.productId,
        data: { phase_key: found.phaseId, step_key: stepKey, media_key: target._key, filename },
      },
      now,
    )
    return attached.filter((m) => m._key !== target._key)
  })
}

/** Hono path of a step's media file by name. */
export const STEP_MEDIA_FILE_PATH = '/media/step/:key/:filename'

/** Serves `/media/step/{key}/{filename}` to signed-in users, like `/media/{key}` (but the name may later mean another file). */
export function serveStepMediaFile(svc: Services) {
  return async (c: Context<AppEnv>) => {
    await authorize(c.get('ctx'), { scope: 'signed-in' })
    const stepKey = c.req.param('key') ?? ''
    const filename = c.req.param('filename') ?? ''
    const found = await findStep(svc.db, stepKey)
    const media = found ? (await mediaOf(svc.db, stepKey, found.step.media)).find((m) => m.filename === filename) : undefined
    if (!media) return c.json({ detail: { message: 'file not found', code: 'NOT_FOUND' } }, 404)
    return sendMediaFile(svc, c, media._key, 'private, max-age=300')
  }
}
