import type { Actor, Services } from '../../context'
import { createFlow } from '../../domains/flows/service'

export const DEMO_FLOW_NAME = 'Esempio: ordini e lotti verso il gestionale'

/**
 * An example data flow, inactive (its address is a placeholder): what a plant would send to its
 * ERP, ready to point at a real address and switch on. Only into a plant without flows.
 */
export async function seedDemoFlows(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('flows').select('id').limit(1).executeTakeFirst()) return []
  const admin = await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'admin').executeTakeFirst()
  if (!admin) return []
  const actor: Actor = { userId: admin.id, sessionId: null, scope: admin.scope, tokenId: null }
  await createFlow(svc, actor, {
    name: DEMO_FLOW_NAME,
    url: 'https://erp.example.com/mes/webhook',
    event_types: ['WORK_ORDER_CREATED', 'BATCH_COMPLETED', 'WORK_ORDER_CLOSED', 'MOVEMENT_CONFIRMED'],
    active: false,
  })
  return [DEMO_FLOW_NAME]
}
