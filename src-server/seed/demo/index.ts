import type { Services } from '../../context'
import { seedDemoCounters } from './counters'
import { seedDemoDepartments } from './departments'
import { seedDemoIssues } from './issues'
import { seedDemoExecution } from './execution'
import { at, daysAgo } from './history'
import { seedDemoLibraries } from './libraries'
import { seedDemoMessages } from './messages'
import { seedDemoProducts } from './products'
import { seedDemoProcesses } from './process'
import { seedDemoSerials } from './serials'
import { DEMO_PASSWORD, DEMO_USERS, seedDemoUsers } from './users'
import { seedDemoFlows } from './flows'
import { seedDemoPrinting } from './printing'
import { seedDemoTraced } from './traced'
import { seedDemoWarehouse } from './warehouse'
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
  // The library as it was two weeks ago, before the work orders' history.
  const past = at(svc, daysAgo(svc.clock.now(), 15, 7))
  // Products and tags (after the form fields their metadata uses); the process/bom seed finds them by code.
  const products = await seedDemoProducts(past)
  log(`demo: ${Object.keys(products).length} demo products ready`)
  // Processes (phases, steps with media) and boms of the finished products, released as revision 1.
  const processes = await seedDemoProcesses(past, products)
  if (processes.length) log(`demo: created ${processes.join(', ')}`)
  // After the products and their processes: work orders are made of a product's phases, with
  // two weeks of work played through the execution service.
  const workOrders = await seedDemoWorkOrders(svc)
  if (workOrders.length) {
    log(`demo: created work orders ${workOrders.join(', ')} with their past batches`)
    // Jobs in progress today: one paused, one running (until the offline sweep pauses it).
    const execution = await seedDemoExecution(svc)
    if (execution.length) log(`demo: jobs in progress (${execution.join(', ')})`)
  }
  // Threads on the demo work orders and the demo operator's jobs.
  const messages = await seedDemoMessages(svc)
  if (messages) log(`demo: posted ${messages} messages`)
  // Issues on the demo work orders and their jobs, in every state (after the work orders).
  const issues = await seedDemoIssues(svc)
  if (issues.length) log(`demo: opened issues ${issues.join(', ')}`)
  // Serials of the demo products, with their links (after the work orders they were made in).
  const serials = await seedDemoSerials(svc)
  if (serials.length) log(`demo: created serials ${serials.join(', ')}`)
  // Two-level traceability: sub-assemblies with counter serials consumed in finished serials.
  const traced = await seedDemoTraced(svc)
  if (traced.length) log(`demo: traced ${traced.join(', ')}`)
  // Positions, stock, a mission and its movement list (after the work orders the mission serves).
  const warehouse = await seedDemoWarehouse(svc)
  if (warehouse.length) log(`demo: warehouse with ${warehouse.join(', ')}`)
  // Labels on bases made here, assigned to products, positions and the traced phase; a printer.
  const printing = await seedDemoPrinting(svc)
  if (printing.length) log(`demo: printing ${printing.join(', ')}`)
  const flows = await seedDemoFlows(svc)
  if (flows.length) log(`demo: inactive flow "${flows.join(', ')}"`)
  log(`demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => `${u.username} [${u.scope.join(' ')}]`).join(', ')}`)
}
