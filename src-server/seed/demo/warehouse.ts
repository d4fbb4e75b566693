import type { Actor, Services } from '../../context'
import { createToLineMission } from '../../domains/missions/service'
import { createMovementList } from '../../domains/movement-lists/service'
import { createMovement } from '../../domains/movements/service'
import { createPosition } from '../../domains/positions/service'
import { at, daysAgo } from './history'

/** The demo warehouse: a store with two racks of shelves, and the position beside line 1. */
export const DEMO_POSITIONS: { code: string; description: string; parent?: string }[] = [
  { code: 'MAG', description: 'Magazzino centrale' },
  { code: 'MAG-A', description: 'Scaffalatura A (componenti meccanici)', parent: 'MAG' },
  { code: 'MAG-A-01', description: 'Scaffale A, ripiano 1', parent: 'MAG-A' },
  { code: 'MAG-A-02', description: 'Scaffale A, ripiano 2', parent: 'MAG-A' },
  { code: 'MAG-A-03', description: 'Scaffale A, ripiano 3', parent: 'MAG-A' },
  { code: 'MAG-B', description: 'Scaffalatura B (elettronica e imballi)', parent: 'MAG' },
  { code: 'MAG-B-01', description: 'Scaffale B, ripiano 1', parent: 'MAG-B' },
  { code: 'MAG-B-02', description: 'Scaffale B, ripiano 2', parent: 'MAG-B' },
  { code: 'MAG-B-03', description: 'Scaffale B, ripiano 3', parent: 'MAG-B' },
  { code: 'LINEA-1', description: 'Bordo linea 1 (montaggio pompe)' },
]

/** Stock loaded two weeks ago for the demo boms: product, shelf, pieces. */
const LOADS: [string, string, number][] = [
  ['CMP-COR-03', 'MAG-A-01', 60],
  ['CMP-MOT-01', 'MAG-A-02', 45],
  ['CMP-GUA-04', 'MAG-A-03', 400],
  ['CMP-VIT-05', 'MAG-A-03', 25],
  ['CMP-PCB-02', 'MAG-B-01', 30],
  ['CMP-CAV-06', 'MAG-B-01', 30],
  ['IMB-SCA-01', 'MAG-B-03', 150],
]
/** Moved to the line before the first work order started: what the line holds today. */
const TO_LINE: [string, string, number][] = [
  ['CMP-COR-03', 'MAG-A-01', 10],
  ['CMP-GUA-04', 'MAG-A-03', 20],
]

/**
 * The demo warehouse through its services: positions, loads onto the shelves, a transfer to the
 * line (two weeks ago), then a mission for the magazzino user that brings the in-progress work
 * order's components to the line, with its movement list to print. Only into a plant without
 * positions; skips without the demo products or work orders.
 */
export async function seedDemoWarehouse(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('positions').select('id').limit(1).executeTakeFirst()) return []
  const user = await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'magazzino').where('archived_at', 'is', null).executeTakeFirst()
  if (!user) return []
  const actor: Actor = { userId: user.id, sessionId: null, scope: user.scope, tokenId: null }
  const products = new Map((await svc.db.selectFrom('products').select(['id', 'code']).execute()).map((p) => [p.code, p.id]))
  if (LOADS.some(([code]) => !products.has(code))) return []
  const now = svc.clock.now()
  const twoWeeksAgo = at(svc, daysAgo(now, 14, 9))

  const positions = new Map<string, string>()
  for (const p of DEMO_POSITIONS) {
    const row = await createPosition(twoWeeksAgo, actor, { code: p.code, description: p.description, parent_key: p.parent ? positions.get(p.parent)! : null })
    positions.set(p.code, row._key)
  }
  for (const [code, position, quantity] of LOADS) {
    await createMovement(twoWeeksAgo, actor, { product_key: products.get(code)!, type: 'load', to_position_key: positions.get(position)!, quantity, reason: 'Carico iniziale (dati dimostrativi)' })
  }
  const later = at(svc, daysAgo(now, 14, 10))
  for (const [code, from, quantity] of TO_LINE) {
    await createMovement(later, actor, { product_key: products.get(code)!, type: 'transfer', from_position_key: positions.get(from)!, to_position_key: positions.get('LINEA-1')!, quantity })
  }
  const created = [`${DEMO_POSITIONS.length} positions`, `${LOADS.length + TO_LINE.length} movements`]

  // The in-progress work order (the first of the queue): its components to bring to the line.
  const workOrder = await svc.db.selectFrom('work_orders').select(['id', 'code']).where('status', '=', 'active').orderBy('sequence').limit(1).executeTakeFirst()
  if (workOrder) {
    const mission = await createToLineMission(svc, actor, { work_order_key: workOrder.id, to_position_key: positions.get('LINEA-1')!, assignee_key: user.id, notes: 'Prima del turno di domani' })
    const list = await createMovementList(svc, actor, { kind: 'mission', mission_key: mission._key })
    created.push(`mission ${mission.code} for ${workOrder.code}`, `movement list ${list.code}`)
  }
  return created
}
