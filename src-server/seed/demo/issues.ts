import type { IssueAction, IssueCreateInput } from '../../../src/domains/issues/schemas'
import type { Actor, Services } from '../../context'
import { escalateIssue } from '../../domains/issues/escalation'
import { actOnIssue, createIssue } from '../../domains/issues/service'

/** An action by a demo user, or the escalation sweep, some hours ago. */
type Step = { action: IssueAction; by: string; hoursAgo: number } | { action: 'escalate'; hoursAgo: number }
type Planned = {
  /** Demo username of who opens it. */
  by: string
  /** Demo issue type code (seed/demo/libraries.ts). */
  type: string
  title: string
  description?: string
  /** A demo work order by queue position, and the first job of one of its phases; a product (the first work order's); nothing. */
  context: { wo: number; phase?: number } | 'product' | 'generic'
  hoursAgo: number
  then?: Step[]
}

/**
 * One issue in each state the quality area shows: open (critical from its type, so the first
 * work order's first job shows critical and the work order has a critical job), escalated by the
 * sweep (on the second work order itself, which shows critical), open and not critical, closed,
 * made non-critical, reopened, made critical by hand, reopened as critical.
 */
const PLAN: Planned[] = [
  { by: 'operatore1', type: 'GM', title: 'Mandrino rumoroso sul banco 2', description: 'Vibrazioni forti a fine ciclo.', context: { wo: 0, phase: 0 }, hoursAgo: 3 },
  {
    by: 'produzione',
    type: 'NCM',
    title: 'Guarnizioni fuori tolleranza',
    description: 'Lotto fornitore 24-118, spessore 2,3 mm invece di 2,0.',
    context: { wo: 1 },
    hoursAgo: 30,
    then: [{ action: 'escalate', hoursAgo: 6 }],
  },
  { by: 'operatore2', type: 'DQ', title: 'Graffi sul carter', context: { wo: 0, phase: 1 }, hoursAgo: 2 },
  {
    by: 'qualita',
    type: 'NCM',
    title: 'Disegno in revisione: quota foro da confermare',
    context: 'product',
    hoursAgo: 72,
    then: [{ action: 'close', by: 'qualita', hoursAgo: 48 }],
  },
  {
    by: 'qualita',
    type: 'SIC',
    title: 'Pavimento scivoloso vicino alla pressa',
    context: 'generic',
    hoursAgo: 5,
    then: [{ action: 'make_non_critical', by: 'qualita', hoursAgo: 4 }],
  },
  {
    by: 'capoturno',
    type: 'DQ',
    title: 'Etichetta illeggibile',
    context: { wo: 3, phase: 0 },
    hoursAgo: 50,
    then: [
      { action: 'close', by: 'qualita', hoursAgo: 40 },
      { action: 'reopen', by: 'qualita', hoursAgo: 1 },
    ],
  },
  {
    by: 'produzione',
    type: 'DQ',
    title: 'Verifica campione richiesta dal cliente',
    context: { wo: 2 },
    hoursAgo: 1,
    then: [{ action: 'make_critical', by: 'qualita', hoursAgo: 0.5 }],
  },
  {
    by: 'operatore1',
    type: 'DQ',
    title: 'Pezzi con bava sul bordo',
    context: { wo: 1, phase: 0 },
    hoursAgo: 20,
    then: [
      { action: 'close', by: 'qualita', hoursAgo: 10 },
      { action: 'reopen_critical', by: 'qualita', hoursAgo: 0.5 },
    ],
  },
]

/**
 * Demo issues on the demo work orders, their jobs, a product and the plant, opened and moved
 * through the issue service (events and critical marks as in use), back-dated with a clock per
 * step. Only into a plant without issues; skips items whose work order, type or user is missing.
 * Returns the codes it created.
 */
export async function seedDemoIssues(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('issues').select('id').limit(1).executeTakeFirst()) return []
  const users = await svc.db.selectFrom('users').select(['id', 'username', 'scope']).where('archived_at', 'is', null).execute()
  const actors = new Map(users.map((u): [string, Actor] => [u.username, { userId: u.id, sessionId: null, scope: u.scope, tokenId: null }]))
  const types = new Map((await svc.db.selectFrom('issue_types').select(['id', 'code']).where('active', '=', true).execute()).map((t) => [t.code, t.id]))
  const workOrders = await svc.db.selectFrom('work_orders').select(['id', 'product_id']).where('archived_at', 'is', null).orderBy('sequence').execute()
  const now = svc.clock.now().getTime()
  const at = (hoursAgo: number) => ({ db: svc.db, clock: { now: () => new Date(now - hoursAgo * 3_600_000) } })

  const contextOf = async (context: Planned['context']): Promise<Partial<IssueCreateInput> | null> => {
    if (context === 'generic') return {}
    if (context === 'product') return workOrders[0] ? { product_key: workOrders[0].product_id } : null
    const wo = workOrders[context.wo]
    if (!wo) return null
    if (context.phase === undefined) return { work_order_key: wo.id }
    const job = await svc.db
      .selectFrom('jobs')
      .select('id')
      .where('work_order_id', '=', wo.id)
      .where('position', '=', context.phase + 1)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst()
    return job ? { job_key: job.id } : null
  }

  const created: string[] = []
  for (const plan of PLAN) {
    const actor = actors.get(plan.by)
    const type = types.get(plan.type)
    const context = await contextOf(plan.context)
    const stepsBy = (plan.then ?? []).flatMap((s) => (s.action === 'escalate' ? [] : [s.by]))
    if (!actor || !type || !context || !stepsBy.every((u) => actors.has(u))) continue
    const issue = await createIssue(at(plan.hoursAgo), actor, { type_key: type, title: plan.title, description: plan.description, ...context })
    for (const step of plan.then ?? []) {
      const when = at(step.hoursAgo)
      if (step.action === 'escalate') await escalateIssue(svc.db, issue._key, when.clock.now())
      else await actOnIssue(when, actors.get(step.by)!, issue._key, step.action)
    }
    created.push(issue.code)
  }
  return created
}
