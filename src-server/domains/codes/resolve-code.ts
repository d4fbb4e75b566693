import { sql } from 'kysely'
import { hasScope, type Scope } from '../../../src/auth/scopes'
import type { CodeKind, ResolvedCode } from '../../../src/domains/codes/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { forbidden, notFound } from '../../errors'

/** What a code names, before the user's scopes choose the screen. */
type Found = { kind: CodeKind; _key: string; code: string; workOrderKey?: string }

/**
 * The screens that show each kind, best first, each behind the scope of its area (the client's
 * route guards use the same words): a job opens as the operator's work session (read-only when it is
 * not the user's), else in its work order's job list for production.
 */
const SCREENS: Record<CodeKind, { scope: Scope; route: (f: Found) => string }[]> = {
  job: [
    { scope: 'operator', route: (f) => `/app/operator/job/${f._key}` },
    { scope: 'production', route: (f) => `/app/production/workorder/${f.workOrderKey}/job-list` },
  ],
  work_order: [
    { scope: 'production', route: (f) => `/app/production/workorder/${f._key}` },
    { scope: 'traceability', route: (f) => `/app/traceability/workorder/${f._key}` },
  ],
  serial: [{ scope: 'traceability', route: (f) => `/app/traceability/serials/${f._key}` }],
  position: [{ scope: 'warehouse', route: (f) => `/app/warehouse/positions/${f._key}` }],
  product: [{ scope: 'library', route: (f) => `/app/library/product/${f._key}` }],
}

/** The path the traveller's QR carries (print preset `job_url`: `{app_url}/app/operator/job/{key}`), on whatever host printed it. */
const TRAVELLER_PATH = /\/app\/operator\/job\/([0-9a-f-]{36})(?:[/?#]|$)/i
/** The job code of the print preset `job`: the work order's code, a slash, the phase's place. */
const JOB_CODE = /^(.+)\/(\d{1,4})$/

/**
 * Scan to open: what a scanned or typed code names, and the screen that shows it to this user.
 *
 * Lookup order (the first kind that has the code and that the user may open wins, so a product
 * and a position sharing a code open the one the user works with):
 * 1. a traveller's address (`…/app/operator/job/{key}`): that job;
 * 2. a work order code (`WO000123`, exact);
 * 3. a job code (`WO000123/1`: the work order's job of that phase; of several, the user's own,
 *    then an unassigned one, then the first);
 * 4. a serial code (exact);
 * 5. a position code (any case);
 * 6. a product code (any case).
 * Codes the system makes come first (they cannot be mistaken); the labels' codes follow.
 * Nothing found: 404 CODE_NOT_FOUND. Found, but on no screen of the user's: 403 CODE_NOT_ALLOWED
 * naming the kind (the user may then ask someone who can open it).
 */
export async function resolveCode(db: Db, actor: Actor, raw: string): Promise<ResolvedCode> {
  const code = raw.trim()
  const found = await findAll(db, actor, code)
  for (const f of found) {
    const screen = SCREENS[f.kind].find((s) => hasScope(actor.scope, s.scope))
    if (screen) return { kind: f.kind, _key: f._key, code: f.code, route: screen.route(f) }
  }
  if (found.length) throw forbidden('CODE_NOT_ALLOWED', `you may not open the ${found[0]!.kind.replace('_', ' ')} ${found[0]!.code}`, { kind: found[0]!.kind, code: found[0]!.code })
  throw notFound('CODE_NOT_FOUND', `code not found: ${code}`)
}

/** Every thing the code names, in the lookup order above. */
async function findAll(db: Db, actor: Actor, code: string): Promise<Found[]> {
  const traveller = TRAVELLER_PATH.exec(code)?.[1]
  if (traveller) {
    if (!isUuid(traveller)) return []
    const job = await jobs(db, actor).where('jobs.id', '=', traveller.toLowerCase()).executeTakeFirst()
    return job ? [jobFound(job)] : []
  }
  const found: Found[] = []
  const wo = await db.selectFrom('work_orders').select(['id', 'code']).where('code', '=', code).executeTakeFirst()
  if (wo) found.push({ kind: 'work_order', _key: wo.id, code: wo.code })
  const jobCode = JOB_CODE.exec(code)
  if (jobCode) {
    const job = await jobs(db, actor)
      .where('work_orders.code', '=', jobCode[1]!)
      .where('jobs.position', '=', Number(jobCode[2]))
      .executeTakeFirst()
    if (job) found.push(jobFound(job))
  }
  const serial = await db.selectFrom('serials').select(['id', 'code']).where('code', '=', code).executeTakeFirst()
  if (serial) found.push({ kind: 'serial', _key: serial.id, code: serial.code })
  const lower = code.toLowerCase()
  const position = await db.selectFrom('positions').select(['id', 'code']).where(sql<string>`lower(code)`, '=', lower).executeTakeFirst()
  if (position) found.push({ kind: 'position', _key: position.id, code: position.code })
  const product = await db.selectFrom('products').select(['id', 'code']).where(sql<string>`lower(code)`, '=', lower).executeTakeFirst()
  if (product) found.push({ kind: 'product', _key: product.id, code: product.code })
  return found
}

/** Jobs with their work order's code, the user's own first, then unassigned ones (a job code names a phase, which may have several). */
const jobs = (db: Db, actor: Actor) =>
  db
    .selectFrom('jobs')
    .innerJoin('work_orders', 'work_orders.id', 'jobs.work_order_id')
    .select(['jobs.id', 'jobs.position', 'jobs.work_order_id', 'work_orders.code as work_order_code'])
    .orderBy(sql`case when jobs.operator_id = ${actor.userId} then 0 when jobs.operator_id is null then 1 else 2 end`)
    .orderBy('jobs.id')

const jobFound = (job: { id: string; position: number; work_order_id: string; work_order_code: string }): Found => ({
  kind: 'job',
  _key: job.id,
  code: `${job.work_order_code}/${job.position}`,
  workOrderKey: job.work_order_id,
})
