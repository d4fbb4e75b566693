import type { Scope } from '../../../src/auth/scopes'
import { hashPassword } from '../../auth/password'
import type { Services } from '../../context'

/** Demo users of every role; all share one known password, printed in the log. */
export const DEMO_PASSWORD = 'demo1234'
export const DEMO_USERS: { username: string; name: string; surname: string; scope: Scope[] }[] = [
  { username: 'operatore1', name: 'Marco', surname: 'Rossi', scope: ['operator'] },
  { username: 'operatore2', name: 'Giulia', surname: 'Bianchi', scope: ['operator'] },
  { username: 'produzione', name: 'Luca', surname: 'Verdi', scope: ['production'] },
  { username: 'libreria', name: 'Sara', surname: 'Neri', scope: ['library'] },
  { username: 'qualita', name: 'Paolo', surname: 'Gallo', scope: ['quality'] },
  { username: 'tracciabilita', name: 'Elena', surname: 'Costa', scope: ['traceability'] },
  { username: 'magazzino', name: 'Andrea', surname: 'Ferri', scope: ['warehouse'] },
  { username: 'rapporti', name: 'Chiara', surname: 'Conti', scope: ['reporting'] },
  { username: 'capoturno', name: 'Davide', surname: 'Marini', scope: ['production', 'operator', 'quality'] },
]

export async function seedDemoUsers(svc: Services): Promise<string[]> {
  const hash = await hashPassword(DEMO_PASSWORD)
  const existing = new Set((await svc.db.selectFrom('users').select('username').execute()).map((r) => r.username.toLowerCase()))
  const missing = DEMO_USERS.filter((u) => !existing.has(u.username))
  if (missing.length === 0) return []
  await svc.db
    .insertInto('users')
    .values(missing.map((u) => ({ username: u.username, name: u.name, surname: u.surname, scope: u.scope.join(' '), password_hash: hash, created_at: svc.clock.now() })))
    .execute()
  return missing.map((u) => u.username)
}
