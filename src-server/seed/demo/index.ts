import type { Services } from '../../context'
import { seedDemoCounters } from './counters'
import { seedDemoDepartments } from './departments'
import { seedDemoIssues } from './issues'
import { seedDemoExecution } from './execution'
import { seedDemoLibraries } from './libraries'
import { seedDemoMessages } from './messages'
import { seedDemoProducts } from './products'
import { seedDemoProcesses } from './process'
import { seedDemoSerials } from './serials'
import { DEMO_PASSWORD, DEMO_USERS, seedDemoUsers } from './users'
import { seedDemoWorkOrders } from './work-orders'

/** Loads the demo plant, one seed module per domain; safe to run on every start. */
export async function seedDemo(svc: Services, log: (line: string) => void): Promise<void> {
  // Departments first: demo users may be placed in them.
  const departments = await seedDemoDepartments(svc)
  if (departments.length) log(`demo: created departments ${departments.join(', ')}`)
  const created = await seedDemoUsers(svc)
  if (created.length) log(`demo: created users ${created.join(', ')}`)
  const libraries = await seedDemoLibraries(svc)
  if (libraries.length) log(`demo: created ${libraries.length} form fields, operations and issue types`)
  const counters = await seedDemoCounters(svc)
  if (counters.length) log(`demo: created counters ${counters.join(', ')}`)
  // Products and tags (after the form fields their metadata uses); the process/bom seed finds them by code.
  const products = await seedDemoProducts(svc)
  log(`demo: ${Object.keys(products).length} demo products ready`)
  // Processes (phases, steps with media) and boms of the finished products.
  const processes = await seedDemoProcesses(svc, products)
  if (processes.length) log(`demo: created ${processes.join(', ')}`)
  // After the products and their processes: work orders are made of a product's phases.
  const workOrders = await seedDemoWorkOrders(svc)
  if (workOrders.length) log(`demo: created work orders ${workOrders.join(', ')}`)
  // Jobs in progress: one paused, one running (until the offline sweep pauses it).
  const execution = await seedDemoExecution(svc)
  if (execution.length) log(`demo: jobs in progress (${execution.join(', ')})`)
  // Threads on the demo work orders and the demo operator's jobs.
  const messages = await seedDemoMessages(svc)
  if (messages) log(`demo: posted ${messages} messages`)
  // Issues on the demo work orders and their jobs, in every state (after the work orders).
  const issues = await seedDemoIssues(svc)
  if (issues.length) log(`demo: opened issues ${issues.join(', ')}`)
  // Serials of the demo products, with their links (after the work orders they were made in).
  const serials = await seedDemoSerials(svc)
  if (serials.length) log(`demo: created serials ${serials.join(', ')}`)
  log(`demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => `${u.username} [${u.scope.join(' ')}]`).join(', ')}`)
}
