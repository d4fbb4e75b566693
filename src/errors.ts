/**
 * Error codes the server answers with (`detail.code`). The client translates each one
 * (src-client/lib/error-messages.ts); scripts read the English `detail.message`.
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'NOT_FOUND',
  'LOGIN_FAILED',
  'LOGIN_THROTTLED',
  'NOT_AUTHENTICATED',
  'NOT_AUTHORISED',
  'BAD_ORIGIN',
  'SESSION_LOCKED',
  'PASSWORD_CHANGE_REQUIRED',
  'WRONG_PASSWORD',
  'WEAK_PASSWORD',
  'WRONG_USER_ID',
  'NO_HOMEPAGE',
  'USERNAME_TAKEN',
  'USERNAME_REQUIRED',
  'PERMISSION_REQUIRED',
  'INVALID_IMAGE',
  'INTERNAL',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]
