import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'

const randomBase32 = (bytes: number) => encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(bytes)))

/**
 * A bearer credential `<id>.<secret>`: the id finds the row, only SHA-256(secret) is stored
 * and compared in constant time (Lucia guide). The secret carries 256 bits of randomness.
 */
export function newCredential(prefix = '') {
  const id = prefix + randomBase32(15)
  const secret = randomBase32(32)
  return { id, token: `${id}.${secret}`, secretHash: hashSecret(secret) }
}

// Native one-shot SHA-256 (same digest as @oslojs/crypto's): it runs on every authenticated
// request. Bun.SHA256.hash costs about 0.3 us a call where node:crypto's createHash costs 6 and
// the pure-JS version several times more.
export function hashSecret(secret: string): Uint8Array {
  return new Uint8Array(Bun.SHA256.hash(secret) as Uint8Array)
}

export function splitCredential(token: string): { id: string; secret: string } | null {
  const dot = token.indexOf('.')
  if (dot < 1 || dot === token.length - 1 || token.length > 200) return null
  return { id: token.slice(0, dot), secret: token.slice(dot + 1) }
}

export function secretMatches(secret: string, storedHash: Uint8Array): boolean {
  return constantTimeEqual(hashSecret(secret), new Uint8Array(storedHash))
}

/** Readable one-time passwords (no look-alike characters) for new users and resets. */
export function temporaryPassword(length = 12): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789'
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}
