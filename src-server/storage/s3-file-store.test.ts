import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { s3FileStore } from './s3-file-store'
import { startS3Server } from './s3-test-server'

describe('S3 file store against a real local S3-compatible server (s3rver)', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>
  beforeAll(async () => {
    s3 = await startS3Server()
  })
  afterAll(async () => {
    await s3?.stop()
  })

  test('put, get, overwrite, delete; a missing key is null; unsafe keys are refused before any request', async () => {
    const store = s3FileStore({ ...s3.settings, prefix: 'plant-1' })
    const bytes = new TextEncoder().encode('hello from the shop floor')
    await store.put('products/p1/doc.txt', bytes)
    const got = await store.get('products/p1/doc.txt')
    expect(got).not.toBeNull()
    expect(new Uint8Array(await got!.arrayBuffer())).toEqual(bytes)
    // It is really in the bucket (s3rver keeps objects as files under bucket/key).
    expect(existsSync(path.join(s3.directory, s3.bucket, 'plant-1', 'products', 'p1', 'doc.txt._S3rver_object'))).toBe(true)
    await store.put('products/p1/doc.txt', new Blob(['second']))
    expect(await (await store.get('products/p1/doc.txt'))!.text()).toBe('second')
    expect(await store.get('products/p1/none.txt')).toBeNull()
    await store.delete('products/p1/doc.txt')
    expect(await store.get('products/p1/doc.txt')).toBeNull()
    await store.delete('products/p1/doc.txt')
    for (const bad of ['../etc/passwd', '/abs', 'a/../b', 'a//b']) {
      await expect(store.put(bad, bytes)).rejects.toThrow('unsafe file key')
    }
    // A binary file of 3 MiB round-trips intact.
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31) % 251)
    await store.put('batches/b1/big.bin', big)
    expect(new Uint8Array(await (await store.get('batches/b1/big.bin'))!.arrayBuffer())).toEqual(big)
  })

  test('a bucket that does not exist fails loudly (no silent local fallback)', async () => {
    const store = s3FileStore({ ...s3.settings, bucket: 'no-such-bucket' })
    await expect(store.put('x/y.txt', new Uint8Array([1]))).rejects.toThrow()
  })
})
