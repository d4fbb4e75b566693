import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signature is
 * `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`. A secret written
 * `whsec_<base64>` signs with the decoded bytes (as the Standard Webhooks libraries do); any other
 * secret signs with its UTF-8 bytes.
 */
export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8')
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}

/** What a receiver does: true when one of the space-separated signatures matches. */
export function verify(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(sign(secret, headers.id, Number(headers.timestamp), body))
  return headers.signature.split(' ').some((candidate) => {
    const got = Buffer.from(candidate)
    return got.length === expected.length && timingSafeEqual(got, expected)
  })
}

/** A new flow secret: `whsec_` and 32 random bytes in base64. */
export const newFlowSecret = () => `whsec_${randomBytes(32).toString('base64')}`

/** A delivery's stable webhook-id. */
export const newDeliveryId = () => `msg_${randomBytes(16).toString('hex')}`
