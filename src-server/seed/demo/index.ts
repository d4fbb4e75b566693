import type { Services } from '../../context'
import { seedDemoDepartments } from './departments'
import { seedDemoLibraries } from './libraries'
import { DEMO_PASSWORD, DEMO_USERS, seedDemoUsers } from './users'

/** Loads the demo plant, one seed module per domain; safe to run on every start. */
export async function seedDemo(svc: Services, log: (line: string) => void): Promise<void> {
  // Departments first: demo users may be placed in them.
  const departments = await seedDemoDepartments(svc)
  if (departments.length) log(`demo: created departments ${departments.join(', ')}`)
  const created = await seedDemoUsers(svc)
  if (created.length) log(`demo: created users ${created.join(', ')}`)
  const libraries = await seedDemoLibraries(svc)
  if (libraries.length) log(`demo: created ${libraries.length} form fields, operations and issue types`)
  log(`demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => `${u.username} [${u.scope.join(' ')}]`).join(', ')}`)
}
