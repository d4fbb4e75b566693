import { formatScope, isScope, SCOPES, type Scope } from '../../src/auth/scopes'
import { badRequest } from '../errors'

/**
 * SPEC 5/6: a user's or an API token's permissions, as space-separated SPEC 6 scope words. A word
 * that is not one of them is refused (UNKNOWN_PERMISSION naming it), never dropped; at least one
 * word is needed (PERMISSION_REQUIRED, SPEC 8 "check at least a permission"). Answers the scope
 * in its one written form (SCOPES order, single spaces).
 */
export function checkedScope(scope: string | null | undefined): string {
  const words = (scope ?? '').split(/\s+/).filter(Boolean)
  const unknown = words.filter((w) => !isScope(w))
  if (unknown.length) {
    throw badRequest(
      'UNKNOWN_PERMISSION',
      `${unknown.map((w) => JSON.stringify(w)).join(', ')} ${unknown.length === 1 ? 'is not a permission' : 'are not permissions'}: the permissions (SPEC 6 scopes) are ${SCOPES.join(', ')}`,
      { unknown, permissions: [...SCOPES] },
    )
  }
  if (words.length === 0) throw badRequest('PERMISSION_REQUIRED', 'check at least a permission')
  return formatScope(words as Scope[])
}
