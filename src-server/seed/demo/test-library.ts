import type { Services } from '../../context'
import { seedDemoCounters } from './counters'
import { seedDemoDepartments } from './departments'
import { at, daysAgo } from './history'
import { seedDemoLibraries } from './libraries'
import { seedDemoProcesses } from './process'
import { seedDemoProducts } from './products'

/** For the seed tests: the demo library as MES_DEMO=1 leaves it (departments to released processes), two weeks back. */
export async function seedDemoLibrary(svc: Services): Promise<void> {
  await seedDemoDepartments(svc)
  await seedDemoLibraries(svc)
  await seedDemoCounters(svc)
  const past = at(svc, daysAgo(svc.clock.now(), 15, 7))
  await seedDemoProcesses(past, await seedDemoProducts(past))
}
