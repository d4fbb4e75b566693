import { type DBSchema, type IDBPDatabase, openDB } from 'idb'
import type { QueuedWrite, RefusedWrite } from './writes'

/**
 * The tablet's own store of kept writes (IndexedDB through `idb`): it survives a reload, a
 * browser crash and a restart. `pending` in the order the writes were made (auto-increment
 * `seq`); `refused` until the operator has read each. Never a password or a token.
 */
interface OfflineDb extends DBSchema {
  pending: { key: number; value: QueuedWrite; indexes: { by_user: string } }
  refused: { key: number; value: RefusedWrite; indexes: { by_user: string } }
}

const NAME = 'mes-offline'
let opened: Promise<IDBPDatabase<OfflineDb>> | null = null

function db() {
  opened ??= openDB<OfflineDb>(NAME, 1, {
    upgrade(d) {
      d.createObjectStore('pending', { keyPath: 'seq', autoIncrement: true }).createIndex('by_user', 'user_key')
      d.createObjectStore('refused', { keyPath: 'seq' }).createIndex('by_user', 'user_key')
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
