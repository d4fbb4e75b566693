import type { MessageContext } from '../../../src/domains/messages/schemas'
import type { WorkOrderDetail } from '../../../src/domains/work-orders/schemas'

/** At most this many threads per unread request (the server takes 100). */
const MAX_THREADS = 100

/**
 * The threads a work order's messages tab gathers: its own and those of its jobs (production
 * reads the operators' job threads there), in phase order.
 */
export function workOrderThreads(wo: WorkOrderDetail): MessageContext[] {
  const jobs = wo.phases.flatMap((p) => p.jobs.map((j): MessageContext => ({ context_type: 'job', context_key: j._key })))
  return [{ context_type: 'work_order', context_key: wo._key } satisfies MessageContext, ...jobs].slice(0, MAX_THREADS)
}
