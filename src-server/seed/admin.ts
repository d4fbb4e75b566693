import { formatScope, SCOPES } from '../../src/auth/scopes'
import { hashPassword } from '../auth/password'
import { temporaryPassword } from '../auth/secrets'
import type { Services } from '../context'
import { appendEvent } from '../domains/events/service'

/**
 * First start on an empty database: user `admin` with every permission. Its password is
 * MES_ADMIN_PASSWORD, or a generated one printed once that must be changed at first sign-in.
 */
export async function ensureAdmin(svc: Services, log: (line: string) => void): Promise<void> {
  const any = await svc.db.selectFrom('users').select('id').limit(1).executeTakeFirst()
  if (any) return
  const configured = svc.config.adminPassword
  const password = configured ?? temporaryPassword(16)
  const { id } = await svc.db
    .insertInto('users')
    .values({
      username: 'admin',
      name: 'Admin',
      surname: '',
      scope: formatScope(SCOPES),
      password_hash: await hashPassword(password),
      must_change_password: !configured,
      created_at: svc.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await appendEvent(svc.db, null, { event_type: 'USER_CREATED', subject_type: 'user', subject_key: id, data: { username: 'admin', bootstrap: true } })
  if (configured) log('created user admin with the password from MES_ADMIN_PASSWORD')
  else log(`created user admin with the one-time password: ${password}  (it must be changed at first sign-in)`)
}
