import { useEffect, useRef, useState } from 'react'
import { deleteDraft, draftsOfJob, getDraft, putDraft, type StoredDraft } from './db'

/**
 * What the operator types into a step's form and has not saved yet (issue 24: nothing typed is
 * lost across a reload or a browser restart). Kept in the device's IndexedDB (db.ts `drafts`),
 * one per user, job, batch and step, as it is typed: after a short pause, and at once when the
 * page goes away or the form leaves the screen. Shown again when the step shows; dropped when it
 * is saved, completed (sent or kept offline: the kept write holds it then) or cancelled, or typed
 * back to what is saved; the drafts of the job's other batches go when a batch shows (they can no
 * longer be saved). Keyed by user like the kept writes: another user on the tablet never sees them.
 */

const WRITE_AFTER_MS = 300

/** The one draft waiting to be written (one form is typed into at a time). */
let waiting: { draft: StoredDraft; timer: ReturnType<typeof setTimeout>; written: () => void } | null = null

function flush(): Promise<void> {
  if (!waiting) return Promise.resolve()
  const { draft, timer, written } = waiting
  clearTimeout(timer)
  waiting = null
  return putDraft(draft).then(written, () => {
    // The device's storage refused (full, private mode): the draft lives on screen only, as before.
  })
}

function schedule(draft: StoredDraft, written: () => void) {
  if (waiting) clearTimeout(waiting.timer)
  waiting = { draft, written, timer: setTimeout(() => void flush(), WRITE_AFTER_MS) }
}

function drop(id: string) {
  if (waiting?.draft.id === id) {
    clearTimeout(waiting.timer)
    waiting = null
  }
  void deleteDraft(id).catch(() => {})
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void flush())

const draftId = (userKey: string, jobKey: string, batchKey: string, stepKey: string) => `${userKey}|${jobKey}|${batchKey}|${stepKey}`

/**
 * Keeps the shown step's draft on the device. `dirty`: the draft differs from what is saved.
 * `onRestore` receives a kept draft when the step shows (the screen decides whether to take it).
 * Returns whether the draft on screen is kept as it is (`kept`) and `drop`, for after a save.
 */
export function useKeptDraft<T extends Record<string, unknown>>(opts: {
  userKey: string | null
  jobKey: string
  batchKey: string
  stepKey: string | null
  draft: T | null
  dirty: boolean
  onRestore: (values: T) => void
}): { kept: boolean; drop: () => void } {
  const { userKey, jobKey, batchKey, stepKey, draft, dirty } = opts
  const id = userKey && stepKey ? draftId(userKey, jobKey, batchKey, stepKey) : null
  const onRestore = useRef(opts.onRestore)
  onRestore.current = opts.onRestore
  // `${id}\n${values}` of what the device holds for the shown step.
  const [keptMark, setKeptMark] = useState<string | null>(null)

  // The job's drafts of other batches can no longer be saved.
  useEffect(() => {
    if (!userKey) return
    draftsOfJob(userKey, jobKey)
      .then((all) => {
        for (const d of all) if (d.batch_key !== batchKey) drop(d.id)
      })
      .catch(() => {})
  }, [userKey, jobKey, batchKey])

  // The step shows: what was typed into it before comes back.
  useEffect(() => {
    if (!id) return
    let live = true
    getDraft(id)
      .then((stored) => {
        if (!live || !stored) return
        setKeptMark(`${id}\n${JSON.stringify(stored.values)}`)
        onRestore.current(stored.values as T)
      })
      .catch(() => {})
    return () => {
      live = false
    }
  }, [id])

  const values = draft === null ? null : JSON.stringify(draft)
  useEffect(() => {
    if (!id || !userKey || !stepKey || values === null) return
    if (!dirty) {
      drop(id)
      setKeptMark(null)
      return
    }
    const mark = `${id}\n${values}`
    schedule({ id, user_key: userKey, job_key: jobKey, batch_key: batchKey, step_key: stepKey, values: JSON.parse(values), typed_at: Date.now() }, () => setKeptMark(mark))
  }, [id, values, dirty, userKey, jobKey, batchKey, stepKey])

  // The form leaves the screen (the session locks, another screen): what waits is written now.
  useEffect(() => () => void flush(), [])

  return {
    kept: id !== null && values !== null && keptMark === `${id}\n${values}`,
    drop: () => {
      if (!id) return
      drop(id)
      setKeptMark(null)
    },
  }
}
