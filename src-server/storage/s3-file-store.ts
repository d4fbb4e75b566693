import { S3Client } from 'bun'
import { assertSafeKey, type FileStore } from './file-store'

export type S3Settings = { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; prefix: string }

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage ...) with Bun's built-in S3
 * client, so several app instances share them. Keys are the same relative paths as on disk,
 * under `prefix`. Credentials not given here come from Bun's usual S3_* / AWS_* variables.
 */
export function s3FileStore(settings: S3Settings): FileStore & { client: S3Client } {
  const client = new S3Client({
    bucket: settings.bucket,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.region ? { region: settings.region } : {}),
    ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
    ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
  })
  const prefix = settings.prefix ? `${settings.prefix.replace(/\/+$/, '')}/` : ''
  const full = (key: string) => `${prefix}${assertSafeKey(key)}`
  return {
    client,
    async put(key, data) {
      await client.write(full(key), data)
    },
    async get(key) {
      // One GET; the bytes are held as a plain Blob (callers read its size, slice it for ranges
      // and stream it as a response body).
      try {
        return new Blob([await client.file(full(key)).bytes()])
      } catch (e) {
        if (isMissing(e)) return null
        throw e
      }
    },
    async delete(key) {
      // Deleting a missing object is not an error in S3.
      await client.delete(full(key))
    },
  }
}

function isMissing(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  return code === 'NoSuchKey' || code === 'ERR_S3_FILE_NOT_FOUND' || /NoSuchKey|not found/i.test(e instanceof Error ? e.message : String(e))
}
