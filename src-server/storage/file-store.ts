import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'

/**
 * Where uploaded files live. One interface so an S3-compatible store (Bun's S3 client) can
 * replace the local disk for several instances; keys are relative paths like `users/<id>/image.png`.
 */
export interface FileStore {
  put(key: string, data: Uint8Array | Blob): Promise<void>
  get(key: string): Promise<Blob | null>
  delete(key: string): Promise<void>
}

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/

/** Rejects anything that could leave the store's folder (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): string {
  const segments = key.split('/')
  if (segments.length === 0 || !segments.every((s) => SAFE_SEGMENT.test(s) && s !== '..' && !s.includes('..'))) {
    throw new Error(`unsafe file key: ${key}`)
  }
  return key
}

export function localFileStore(root: string): FileStore {
  const full = (key: string) => path.join(root, assertSafeKey(key))
  return {
    async put(key, data) {
      const target = full(key)
      await mkdir(path.dirname(target), { recursive: true })
      await Bun.write(target, data)
    },
    async get(key) {
      const file = Bun.file(full(key))
      return (await file.exists()) ? file : null
    },
    async delete(key) {
      await rm(full(key), { force: true })
    },
  }
}
