import type { IssueCreateInput } from '../../../src/domains/issues/schemas'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { quickUser } from '../../test/fixtures'
import type { Harness } from '../../test/harness'
import { type MadeWorkOrder, makeProduct, makeWorkOrder } from '../jobs/test-fixtures'
import { createIssue } from './service'

/**
 * A small plant for the issue tests, written straight into the tables: users of each role,
 * issue types, a product with two phases, two work orders of it (one job per phase) with a
 * batch on the first job, and another product.
 */

export type User = { key: string; token: string; actor: Actor }

async function user(h: Harness, username: string, scope: string): Promise<User> {
  const u = await quickUser(h, username, scope)
  return { ...u, actor: { userId: u.key, sessionId: null, scope, tokenId: null } }
}

export async function makeIssueType(db: Db, code: string, opts: { critical?: boolean; close_within_hours?: number; active?: boolean } = {}): Promise<string> {
  const { id } = await db
    .insertInto('issue_types')
    .values({ code, name: `Tipo ${code}`, critical: opts.critical ?? false, close_within_hours: opts.close_within_hours ?? 0, active: opts.active ?? true, print_templates: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

export type IssueWorld = {
  quality: User
  production: User
  operator: User
  operator2: User
  types: { plain: string; critical: string; hours4: string; inactive: string }
  product: { id: string; code: string }
  otherProduct: { id: string; code: string }
  wo: MadeWorkOrder
  wo2: MadeWorkOrder
  batch: string
  /** The step keys of the first job. */
  steps: string[]
}

export async function makeIssueWorld(h: Harness, prefix: string): Promise<IssueWorld> {
  const db = h.svc.db
  const [quality, production, operator, operator2] = [
    await user(h, `${prefix}.quality`, 'quality'),
    await user(h, `${prefix}.production`, 'production'),
    await user(h, `${prefix}.operator`, 'operator'),
    await user(h, `${prefix}.operator2`, 'operator'),
  ]
  const types = {
    plain: await makeIssueType(db, `${prefix}-PLAIN`),
    critical: await makeIssueType(db, `${prefix}-CRIT`, { critical: true }),
    hours4: await makeIssueType(db, `${prefix}-H4`, { close_within_hours: 4 }),
    inactive: await makeIssueType(db, `${prefix}-OFF`, { active: false }),
  }
  const product = await makeProduct(db, { code: `${prefix}-PROD`, phases: [{ name: 'Montaggio' }, { name: 'Collaudo' }] })
  const otherProduct = await makeProduct(db, { code: `${prefix}-OTHER`, phases: [{}] })
  const wo = await makeWorkOrder(db, product, { code: `${prefix}-WO1` })
  const wo2 = await makeWorkOrder(db, product, { code: `${prefix}-WO2` })
  const { id: batch } = await db.insertInto('batches').values({ job_id: wo.jobs[0]!, qt_total: 2, opened_at: h.clock.now() }).returning('id').executeTakeFirstOrThrow()
  const job = await db.selectFrom('jobs').select('step_sequence').where('id', '=', wo.jobs[0]!).executeTakeFirstOrThrow()
  return { quality, production, operator, operator2, types, product, otherProduct, wo, wo2, batch, steps: job.step_sequence.map((s) => s._key) }
}

/** Opens an issue through the service (quality unless told otherwise). */
export const openIssue = (h: Harness, w: IssueWorld, input: Partial<IssueCreateInput> = {}, who: User = w.quality) =>
  createIssue(h.svc, who.actor, { type_key: w.types.plain, title: 'Problema', ...input })

/** The status and application code of a refused call. */
export async function refused(p: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  try {
    await p
  } catch (e) {
    return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode }
  }
  throw new Error('expected a refusal')
}

export const criticalMarks = async (db: Db, wo: MadeWorkOrder) => ({
  work_order: (await db.selectFrom('work_orders').select('critical').where('id', '=', wo.id).executeTakeFirstOrThrow()).critical,
  jobs: (await db.selectFrom('jobs').select(['id', 'critical']).where('work_order_id', '=', wo.id).execute())
    .sort((a, b) => wo.jobs.indexOf(a.id) - wo.jobs.indexOf(b.id))
    .map((j) => j.critical),
})

export const issueEvents = (db: Db, key: string) =>
  db.selectFrom('events').selectAll().where('subject_type', '=', 'issue').where('subject_key', '=', key).orderBy('id').execute()
