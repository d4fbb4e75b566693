import { dayOf } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { readSettings } from '../../domains/settings/queries'
import { createWorkOrder } from '../../domains/work-orders/create'
import { refreshWorkOrderProgress } from '../../domains/work-orders/progress'
import { changeQuantities } from '../../domains/work-orders/quantities'

type Planned = {
  name: string
  product: number
  quantity: number
  start: number
  due: number
  line: string
  notes?: string
  /** Demo usernames per phase (the last one repeats); null = unassigned. */
  operators: (string | null)[]
  /** Pieces each phase has completed (and released downstream), in process order. */
  done?: number[]
}

/**
 * The demo queue, dates relative to today: in progress, late, new (unassigned and assigned, one
 * split between two operators), completed. Phases beyond `done` have done nothing yet.
 */
const PLAN: Planned[] = [
  {
    name: 'in progress',
    product: 0,
    quantity: 20,
    start: -3,
    due: 7,
    line: 'Linea 1',
    notes: 'Priorità alta: consegna parziale al cliente a metà settimana.',
    operators: ['operatore1', 'operatore2'],
    done: [12, 5],
  },
  { name: 'late', product: 1, quantity: 10, start: -10, due: -2, line: 'Linea 2', operators: ['operatore1', null], done: [4] },
  { name: 'new', product: 0, quantity: 50, start: 2, due: 14, line: 'Linea 1', operators: [null] },
  { name: 'new assigned', product: 2, quantity: 8, start: 5, due: 20, line: 'Linea 3', operators: ['capoturno', 'operatore2'] },
  { name: 'completed', product: 1, quantity: 5, start: -7, due: -1, line: 'Linea 2', operators: ['operatore2'], done: [5, 5, 5, 5, 5, 5] },
]

const addDays = (today: Date, days: number) => dayOf(new Date(today.getTime() + days * 86_400_000))

async function demoProducts(db: Db) {
  return db
    .selectFrom('products as p')
    .select(['p.id', 'p.code'])
    .where('p.active', '=', true)
    .where('p.trashed_at', 'is', null)
    .where(({ exists, selectFrom }) => exists(selectFrom('product_revisions as r').select('r.id').whereRef('r.product_id', '=', 'p.id')))
    .orderBy('p.code')
    .limit(3)
    .execute()
}

/**
 * A queue of demo work orders on the demo products that have a process. Idempotent: it only
 * fills an empty plant (no work order yet) and skips when no product has a released revision yet.
 * Returns the codes it created.
 */
export async function seedDemoWorkOrders(svc: Services): Promise<string[]> {
  const existing = await svc.db.selectFrom('work_orders').select('id').limit(1).executeTakeFirst()
  if (existing) return []
  const products = await demoProducts(svc.db)
  if (products.length === 0) return []
  const users = await svc.db.selectFrom('users').select(['id', 'username', 'scope']).where('archived_at', 'is', null).execute()
  const byName = new Map(users.map((u) => [u.username, u]))
  const planner = byName.get('produzione') ?? users.find((u) => u.username === 'admin')
  if (!planner) return []
  const actor: Actor = { userId: planner.id, sessionId: null, scope: planner.scope, tokenId: null }
  const operator = (name: string | null) => (name && byName.get(name)?.id) || null
  const fallback = operator('operatore1') ?? operator('capoturno')
  const { allow_unassigned_jobs } = await readSettings(svc.db)
  const today = svc.clock.now()
  const created: string[] = []

  for (const plan of PLAN) {
    const product = products[plan.product % products.length]!
    // The phases of the latest revision, which the work order is made from.
    const phases = await svc.db
      .selectFrom('product_phases')
      .select('id')
      .where('revision_id', '=', (eb) => eb.selectFrom('product_revisions').select('id').where('product_id', '=', product.id).orderBy('number', 'desc').limit(1))
      .orderBy('position')
      .orderBy('id')
      .execute()
    const phaseOperators = phases
      .map((p, i) => ({ phase_key: p.id, operator_key: operator(plan.operators[Math.min(i, plan.operators.length - 1)] ?? null) ?? (allow_unassigned_jobs ? null : fallback) }))
      .filter((po): po is { phase_key: string; operator_key: string } => po.operator_key !== null)
    if (!allow_unassigned_jobs && phaseOperators.length < phases.length) continue
    const wo = await createWorkOrder(svc, actor, {
      product_key: product.id,
      quantity: plan.quantity,
      start_from: addDays(today, plan.start),
      due_by: addDays(today, plan.due),
      line: plan.line,
      notes: plan.notes ?? '',
      phase_operators: phaseOperators,
    })
    created.push(wo.code)

    if (plan.name === 'new' && fallback) {
      // Phase 1 split between the unassigned job and an operator (a quantity change with its distribution).
      await changeQuantities(svc, actor, wo._key, {
        quantity: plan.quantity,
        phases: [{ phase_key: wo.phases[0]!._key, jobs: [{ job_key: wo.phases[0]!.jobs[0]!._key, quantity: 30 }], new_jobs: [{ operator_key: fallback, quantity: plan.quantity - 30 }] }],
      })
    }

    if (plan.done) await recordProgress(svc.db, wo._key, plan.done, today, actor)
  }
  return created
}

/** Completed pieces per phase as the operator screens would leave them (continuous release). */
async function recordProgress(db: Db, woId: string, done: number[], now: Date, actor: Actor) {
  await db.transaction().execute(async (trx) => {
    await trx.selectFrom('work_orders').select('id').where('id', '=', woId).forUpdate().execute()
    const phases = await trx.selectFrom('work_order_phases').select(['phase_id', 'position']).where('work_order_id', '=', woId).orderBy('position').execute()
    let releasedIn: number | null = null
    for (const [i, phase] of phases.entries()) {
      const completed = Math.min(done[i] ?? 0, releasedIn ?? Number.MAX_SAFE_INTEGER)
      const out = i < phases.length - 1 ? completed : 0
      await trx
        .updateTable('work_order_phases')
        .set({ ...(releasedIn !== null ? { released_in_qt: releasedIn } : {}), taken_qt: completed, completed_qt: completed, released_out_qt: out })
        .where('work_order_id', '=', woId)
        .where('phase_id', '=', phase.phase_id)
        .execute()
      if (completed > 0) {
        const job = await trx.selectFrom('jobs').select(['id', 'quantity']).where('work_order_id', '=', woId).where('phase_id', '=', phase.phase_id).orderBy('created_at').limit(1).executeTakeFirstOrThrow()
        const finished = completed >= job.quantity
        await trx
          .updateTable('jobs')
          .set({
            completed_qt: completed,
            released_qt: out,
            status: finished ? 'closed' : 'paused',
            started_at: new Date(now.getTime() - 86_400_000),
            closed_at: finished ? now : null,
            time_spent_ms: completed * 90_000,
            updated_at: now,
          })
          .where('id', '=', job.id)
          .execute()
      }
      releasedIn = out
    }
    await refreshWorkOrderProgress(trx, woId, { actor, now })
  })
}
