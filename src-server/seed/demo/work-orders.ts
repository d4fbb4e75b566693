import { dayOf } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { readSettings } from '../../domains/settings/queries'
import { createWorkOrder } from '../../domains/work-orders/create'
import { changeQuantities } from '../../domains/work-orders/quantities'
import { at, daysAgo, playShift } from './history'

type Work = {
  /** Phase index in process order. */
  phase: number
  /** Days ago, and the hour the shift starts. */
  day: number
  hour: number
  batches: number
  pause?: number
  scrap?: number[]
  slowness?: number
}

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
  /** Shifts played through the execution service (history.ts), oldest first; by each phase's operator. */
  work?: Work[]
}

/**
 * The demo queue, dates relative to today: in progress, late, new (unassigned and assigned, one
 * split between two operators), completed ones over the past two weeks. Standard times over run
 * times, pauses and scrap give an OEE of about 70-80 %.
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
    work: [
      { phase: 0, day: 3, hour: 8, batches: 4, pause: 10 },
      { phase: 1, day: 3, hour: 13, batches: 2, pause: 5 },
      { phase: 0, day: 2, hour: 8, batches: 3 },
      { phase: 1, day: 2, hour: 13, batches: 1, slowness: 1.2 },
    ],
  },
  { name: 'late', product: 1, quantity: 10, start: -10, due: -2, line: 'Linea 2', operators: ['operatore1', null], work: [{ phase: 0, day: 9, hour: 9, batches: 1 }] },
  { name: 'new', product: 0, quantity: 50, start: 2, due: 14, line: 'Linea 1', operators: [null] },
  { name: 'new assigned', product: 2, quantity: 8, start: 5, due: 20, line: 'Linea 3', operators: ['capoturno', 'operatore2'] },
  {
    name: 'completed',
    product: 1,
    quantity: 10,
    start: -7,
    due: -1,
    line: 'Linea 2',
    operators: ['operatore2'],
    work: [
      { phase: 0, day: 6, hour: 8, batches: 2, pause: 8 },
      { phase: 1, day: 6, hour: 13, batches: 2, pause: 5, scrap: [0, 1] },
      { phase: 2, day: 5, hour: 8, batches: 1, slowness: 1.25 },
    ],
  },
  {
    name: 'completed',
    product: 2,
    quantity: 50,
    start: -13,
    due: -8,
    line: 'Linea 3',
    operators: ['operatore1', 'operatore2'],
    work: [
      { phase: 0, day: 13, hour: 8, batches: 2, pause: 12 },
      { phase: 1, day: 12, hour: 8, batches: 1, slowness: 1.25 },
    ],
  },
  {
    name: 'completed',
    product: 0,
    quantity: 10,
    start: -12,
    due: -6,
    line: 'Linea 2',
    operators: ['capoturno', 'operatore2'],
    work: [
      { phase: 0, day: 11, hour: 8, batches: 5, pause: 10, slowness: 1.05 },
      { phase: 1, day: 10, hour: 8, batches: 3, pause: 5 },
    ],
  },
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
  const actors = new Map(users.map((u): [string, Actor] => [u.id, { userId: u.id, sessionId: null, scope: u.scope, tokenId: null }]))
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
    // Planned the morning of its start day (today for one that starts later): its work comes after.
    const wo = await createWorkOrder(at(svc, plan.start < 0 ? daysAgo(today, -plan.start, 7) : today), actor, {
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

    for (const w of plan.work ?? []) {
      const job = wo.phases[w.phase]?.jobs[0]
      const by = job?.operator_key ? actors.get(job.operator_key) : undefined
      if (!job || !by) continue
      await playShift(svc, { job: job._key, by, at: daysAgo(today, w.day, w.hour), batches: w.batches, pauseMinutes: w.pause, scrap: w.scrap, slowness: w.slowness ?? 1.12 })
    }
  }
  return created
}
