import { hasScope } from '../../../src/auth/scopes'
import { useSession } from '../../lib/use-auth'

/** Warehouse staff change positions and stock; production and admin only read (server: movements/access.ts). */
export function useCanEditWarehouse(): boolean {
  return hasScope(useSession()?.scope ?? '', 'warehouse')
}
