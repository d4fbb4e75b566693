import type { Scope } from '../../../src/auth/scopes'
import { hashPassword } from '../../auth/password'
import type { Services } from '../../context'

type DemoUser = {
  username: string
  name: string
  surname: string
  scope: Scope[]
  /** A demo department code (seed/demo/departments.ts); left empty when it does not exist. */
  department?: string
  hourly_cost?: number
}

/** Demo users of every role; all share one known password, printed in the log. */
export const DEMO_PASSWORD = 'demo1234'
export const DEMO_USERS: DemoUser[] = [
  { username: 'operatore1', name: 'Marco', surname: 'Rossi', scope: ['operator'], department: 'ASM', hourly_cost: 28 },
  { username: 'operatore2', name: 'Giulia', surname: 'Bianchi', scope: ['operator'], department: 'COL', hourly_cost: 26.5 },
  { username: 'produzione', name: 'Luca', surname: 'Verdi', scope: ['production'] },
  { username: 'libreria', name: 'Sara', surname: 'Neri', scope: ['library'] },
  { username: 'qualita', name: 'Paolo', surname: 'Gallo', scope: ['quality'], department: 'COL' },
  { username: 'tracciabilita', name: 'Elena', surname: 'Costa', scope: ['traceability'] },
  { username: 'magazzino', name: 'Andrea', surname: 'Ferri', scope: ['warehouse'], department: 'MAG' },
  { username: 'rapporti', name: 'Chiara', surname: 'Conti', scope: ['reporting'] },
  { username: 'capoturno', name: 'Davide', surname: 'Marini', scope: ['production', 'operator', 'quality'], department: 'ASM', hourly_cost: 35 },
]

export async function seedDemoUsers(svc: Services): Promise<string[]> {
  const existing = new Set((await svc.db.selectFrom('users').select('username').execute()).map((r) => r.username.toLowerCase()))
  const missing = DEMO_USERS.filter((u) => !existing.has(u.username))
  if (missing.length === 0) return []
  // Hashing is slow on purpose: only when a demo user is still missing (not on every start).
  const hash = await hashPassword(DEMO_PASSWORD)
  const departments = new Map(
    (await svc.db.selectFrom('departments').select(['id', 'code']).execute()).map((d) => [d.code.toUpperCase(), d.id]),
  )
  await svc.db
    .insertInto('users')
    .values(
      missing.map((u) => ({
        username: u.username,
        name: u.name,
        surname: u.surname,
        scope: u.scope.join(' '),
        department_id: (u.department && departments.get(u.department)) || null,
        hourly_cost: u.hourly_cost ?? null,
        password_hash: hash,
        created_at: svc.clock.now(),
      })),
    )
    .execute()
  return missing.map((u) => u.username)
}
