import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver'

/**
 * A real local S3-compatible server for tests (s3rver: the S3 REST API over a folder), on
 * 127.0.0.1 and a free port, with one bucket. Its fixed credentials are S3RVER / S3RVER.
 */
export async function startS3Server(bucket = 'mes-test') {
  const directory = mkdtempSync(path.join(tmpdir(), 'mes-s3-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = (await server.run()) as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    directory,
    settings: { bucket, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', prefix: '' },
    /** The MES_S3_* variables for an app process. */
    env: { MES_S3_BUCKET: bucket, MES_S3_ENDPOINT: endpoint, MES_S3_REGION: 'us-east-1', MES_S3_ACCESS_KEY_ID: 'S3RVER', MES_S3_SECRET_ACCESS_KEY: 'S3RVER' },
    async stop() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
