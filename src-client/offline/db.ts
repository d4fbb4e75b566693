import { type DBSchema, type IDBPDatabase, openDB } from 'idb'
import type { QueuedWrite, RefusedWrite } from './writes'

/**
 * The tablet's own store of kept writes (IndexedDB through `idb`): it survives a reload, a
 * browser crash and a restart. `pending` in the order the writes were made (auto-increment
 * `seq`); `refused` until the operator has read each; `drafts`, what is typed into a step's form
 * and not saved yet (version 2). Never a password or a token.
 */
interface OfflineDb extends DBSchema {
  pending: { key: number; value: QueuedWrite; indexes: { by_user: string } }
  refused: { key: number; value: RefusedWrite; indexes: { by_user: string } }
  drafts: { key: string; value: StoredDraft; indexes: { by_job: [string, string] } }
}

/** A step's form as typed and not saved yet (drafts.ts), one per user, job, batch and step. */
export type StoredDraft = { id: string; user_key: string; job_key: string; batch_key: string; step_key: string; values: Record<string, unknown>; typed_at: number }

const NAME = 'mes-offline'
let opened: Promise<IDBPDatabase<OfflineDb>> | null = null

function db() {
  opened ??= openDB<OfflineDb>(NAME, 2, {
    upgrade(d, oldVersion) {
      if (oldVersion < 1) {
        d.createObjectStore('pending', { keyPath: 'seq', autoIncrement: true }).createIndex('by_user', 'user_key')
        d.createObjectStore('refused', { keyPath: 'seq' }).createIndex('by_user', 'user_key')
      }
      if (oldVersion < 2) d.createObjectStore('drafts', { keyPath: 'id' }).createIndex('by_job', ['user_key', 'job_key'])
    },
    // A newer page (another tab, after an update) upgrades the database: let it, and open again on next use.
    blocking(_current, _next, event) {
      ;(event.target as IDBDatabase).close()
      opened = null
    },
  })
  return opened
}

export async function addPending(write: QueuedWrite): Promise<QueuedWrite> {
  const seq = await (await db()).add('pending', write)
  return { ...write, seq }
}

/** The user's kept writes, oldest first (keys of one index come back in key order). */
export async function pendingOf(userKey: string): Promise<QueuedWrite[]> {
  return (await db()).getAllFromIndex('pending', 'by_user', userKey)
}

export async function refusedOf(userKey: string): Promise<RefusedWrite[]> {
  return (await db()).getAllFromIndex('refused', 'by_user', userKey)
}

export async function removePending(seq: number) {
  await (await db()).delete('pending', seq)
}

/** One transaction: a refused write is never both pending and refused, nor lost between. */
export async function movePendingToRefused(refused: RefusedWrite) {
  const tx = (await db()).transaction(['pending', 'refused'], 'readwrite')
  await Promise.all([tx.objectStore('pending').delete(refused.seq!), tx.objectStore('refused').put(refused), tx.done])
}

export async function removeRefused(seq: number) {
  await (await db()).delete('refused', seq)
}

export async function putDraft(draft: StoredDraft) {
  await (await db()).put('drafts', draft)
}

export async function getDraft(id: string): Promise<StoredDraft | undefined> {
  return (await db()).get('drafts', id)
}

export async function deleteDraft(id: string) {
  await (await db()).delete('drafts', id)
}

/** The drafts a user keeps for one job (every batch and step). */
export async function draftsOfJob(userKey: string, jobKey: string): Promise<StoredDraft[]> {
  return (await db()).getAllFromIndex('drafts', 'by_job', [userKey, jobKey])
}
