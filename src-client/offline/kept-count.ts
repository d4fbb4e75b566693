/**
 * How many writes a user keeps on this device (offline/db.ts), for the lock screen: plain
 * IndexedDB, so the first load carries neither `idb` nor the queue. Never creates the database:
 * one that does not exist yet holds nothing (the upgrade is aborted, idb makes it on first use).
 */
const NAME = 'mes-offline'

export function keptWritesOf(userKey: string): Promise<number> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest
    try {
      request = indexedDB.open(NAME)
    } catch {
      return resolve(0)
    }
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onerror = () => resolve(0)
    request.onsuccess = () => {
      const db = request.result
      try {
        const count = db.transaction('pending').objectStore('pending').index('by_user').count(userKey)
        count.onsuccess = () => resolve(count.result)
        count.onerror = () => resolve(0)
      } catch {
        resolve(0)
      } finally {
        db.close()
      }
    }
  })
}
