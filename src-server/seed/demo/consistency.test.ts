import { beforeAll, describe, expect, test } from 'bun:test'
import { dayOf } from '../../../src/domains/work-orders/rules'
import type { Actor } from '../../context'
import { listFlows } from '../../domains/flows/service'
import { getJobAssignment } from '../../domains/jobs/operator-queues'
import { listJobs } from '../../domains/jobs/list'
import { listIssues } from '../../domains/issues/service'
import { listMissions } from '../../domains/missions/service'
import { listMovementLists } from '../../domains/movement-lists/service'
import { readInventory } from '../../domains/movements/stock'
import { listTemplates } from '../../domains/print-templates/service'
import { listPrinters } from '../../domains/printers/service'
import { listProducts } from '../../domains/products/service'
import { oeeReport } from '../../domains/reports/oee'
import { productionReport, reportJobs } from '../../domains/reports/service'
import { getGenealogy, listSerials } from '../../domains/serials/service'
import { listWorkOrders } from '../../domains/work-orders/list'
import { useHarness } from '../../test/harness'
import { seedDemo } from '.'
import { DEMO_FLOW_NAME } from './flows'
import { TRACED } from './traced'
import { DEMO_USERS } from './users'

/**
 * The demo plant tells one story in every area: the pieces of the job lists are the pieces the
 * reports count from the batches, OEE stays a percentage, and every demo user's home screen (the
 * service it calls) has something to show. Seeded once, as `MES_DEMO=1` does, mid-month so the
 * report's default range (this month) holds the two weeks of history.
 */
describe('demo plant consistency', () => {
  const h = useHarness()
  const range = { from: '', to: '' }
  const actorOf = async (username: string): Promise<Actor> => {
    const u = await h.svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', username).executeTakeFirstOrThrow()
    return { userId: u.id, sessionId: null, scope: u.scope, tokenId: null }
  }

  beforeAll(async () => {
    h.clock.set('2026-03-20T15:30:00Z')
    const started = performance.now()
    await seedDemo(h.svc, () => {})
    // Measured on PGlite or PostgreSQL alike: the seed must stay quick at every start.
    expect(performance.now() - started).toBeLessThan(60_000)
    const now = h.clock.now()
    range.from = dayOf(new Date(now.getFullYear(), now.getMonth(), 1))
    range.to = dayOf(new Date(now.getFullYear(), now.getMonth() + 1, 0))
  }, 120_000)

  test('seeding again adds nothing', async () => {
    const count = async () => {
      const [wo, batches, serials, positions, templates] = await Promise.all(
        (['work_orders', 'batches', 'serials', 'positions', 'print_templates'] as const).map((t) =>
          h.svc.db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        ),
      )
      return [wo, batches, serials, positions, templates].map((r) => Number(r!.n))
    }
    const before = await count()
    await seedDemo(h.svc, () => {})
    expect(await count()).toEqual(before)
  })

  test('report totals are the completed batches, and the job lists show the same pieces', async () => {
    const batches = await h.svc.db
      .selectFrom('batches')
      .select((eb) => [eb.fn.sum<number>('qt_total').as('pieces'), eb.fn.sum<number>('scrapped_qt').as('scrapped'), eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow()
    expect(Number(batches.n)).toBeGreaterThan(20)
    expect(Number(batches.scrapped)).toBeGreaterThan(0)
    const report = await productionReport(h.svc, { ...range, group_by: 'work_order' })
    expect(report.totals.completed).toBe(Number(batches.pieces))
    expect(report.totals.scrapped).toBe(Number(batches.scrapped))

    // Every job of every work order, as production's job list shows it (closed ones included).
    const jobs = []
    let cursor: string | undefined
    do {
      const page = await listJobs(h.svc, { include_closed: true, limit: 200, cursor })
      jobs.push(...page.rows)
      cursor = page.next_cursor ?? undefined
    } while (cursor)
    expect(jobs.reduce((sum, j) => sum + j.completed_qt, 0)).toBe(report.totals.completed)
    const byWorkOrder = new Map<string, number>()
    for (const j of jobs) byWorkOrder.set(j.work_order_key, (byWorkOrder.get(j.work_order_key) ?? 0) + j.completed_qt)
    for (const row of report.rows) expect({ wo: row.label, pieces: row.completed }).toEqual({ wo: row.label, pieces: byWorkOrder.get(row.key!)! })
    // The drill-down names each job with the pieces its list row shows.
    const drill = await reportJobs(h.svc, range)
    for (const d of drill.jobs) expect({ job: d.job_key, pieces: d.completed_in_range }).toEqual({ job: d.job_key, pieces: jobs.find((j) => j._key === d.job_key)!.completed_qt })
  })

  test('OEE is a percentage on every row and a plausible one for the plant', async () => {
    for (const group_by of ['phase', 'department', 'line'] as const) {
      const oee = await oeeReport(h.svc, { ...range, group_by })
      expect(oee.rows.length).toBeGreaterThan(0)
      for (const row of [...oee.rows, ...oee.buckets, oee.totals]) {
        if (row.oee === null) continue
        expect(row.oee).toBeGreaterThanOrEqual(0)
        expect(row.oee).toBeLessThanOrEqual(1)
      }
      expect(oee.totals.oee!).toBeGreaterThan(0.6)
      expect(oee.totals.oee!).toBeLessThan(0.85)
      expect(oee.totals.quality!).toBeLessThan(1)
      expect(oee.totals.pause_ms).toBeGreaterThan(0)
    }
  })

  test('the warehouse has a position tree with a line position, stock for the boms, a mission to do and its movement list', async () => {
    const positions = await h.svc.db.selectFrom('positions').select(['code', 'parent_id']).execute()
    expect(positions.map((p) => p.code)).toEqual(expect.arrayContaining(['MAG', 'MAG-A', 'MAG-A-01', 'MAG-B-03', 'LINEA-1']))
    const inventory = await readInventory(h.svc.db, {})
    const stocked = new Set(inventory.lines.map((l) => l.product_code))
    for (const code of ['CMP-COR-03', 'CMP-MOT-01', 'CMP-GUA-04', 'CMP-PCB-02', 'IMB-SCA-01']) expect(stocked).toContain(code)
    const missions = await listMissions(h.svc, await actorOf('magazzino'), { mine: true })
    expect(missions.rows.some((m) => m.status === 'open' || m.status === 'in_progress')).toBe(true)
    expect((await listMovementLists(h.svc, {})).total).toBeGreaterThan(0)
  })

  test('a finished serial opens its genealogy down to the sub-assembly and its motor', async () => {
    const pump = await h.svc.db.selectFrom('products').select('id').where('code', '=', TRACED.pump).executeTakeFirstOrThrow()
    const serials = await listSerials(h.svc, { product_key: pump.id })
    expect(serials.rows.length).toBe(4)
    const genealogy = await getGenealogy(h.svc, serials.rows[0]!._key, 'backward')
    expect(genealogy.rows.map((r) => [r.depth, r.product_code])).toEqual([
      [0, TRACED.pump],
      [1, TRACED.group],
      [2, TRACED.motor],
    ])
    expect(genealogy.rows.every((r) => r.state === 'final')).toBe(true)
    // Its serial fields were filled when it was declared.
    expect(Object.keys(serials.rows[0]!.data).length).toBe(2)
  })

  test('labels, a printer and an inactive example flow are there', async () => {
    expect((await listTemplates(h.svc, { context: 'settings', context_key: 'product_label' })).length).toBe(1)
    expect((await listTemplates(h.svc, { context: 'settings', context_key: 'position_label' })).length).toBe(1)
    const tracedPhase = await h.svc.db.selectFrom('jobs as j').innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id').innerJoin('products as p', 'p.id', 'wo.product_id').select('j.phase_id').where('p.code', '=', TRACED.pump).where('j.position', '=', 1).executeTakeFirstOrThrow()
    expect((await listTemplates(h.svc, { context: 'phase', context_key: tracedPhase.phase_id })).map((t) => t.name)).toContain('Etichetta seriale 100x50')
    expect((await listPrinters(h.svc)).length).toBe(1)
    const flows = await listFlows(h.svc)
    expect(flows.map((f) => [f.name, f.active])).toEqual([[DEMO_FLOW_NAME, false]])
    // A phase without step checks, where scrap was recorded.
    const scrapped = await h.svc.db
      .selectFrom('batches as b')
      .innerJoin('jobs as j', 'j.id', 'b.job_id')
      .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
      .select('ph.parameters')
      .where('b.scrapped_qt', '>', 0)
      .execute()
    expect(scrapped.some((r) => (r.parameters as { step_check: boolean }).step_check === false)).toBe(true)
  })

  test("every demo user's home screen has something to show", async () => {
    const homes: Record<string, (actor: Actor) => Promise<number>> = {
      operator: async (actor) => {
        const a = await getJobAssignment(h.svc, actor, { user_key: actor.userId })
        return a.assigned_jobs_by_operator.find((q) => q.operator._key === actor.userId)?.jobs.length ?? 0
      },
      production: async () => (await listWorkOrders(h.svc, {})).rows.length,
      library: async () => (await listProducts(h.svc, {})).rows.length,
      quality: async () => (await listIssues(h.svc, {})).rows.length,
      traceability: async () => (await listSerials(h.svc, {})).rows.length,
      warehouse: async () => (await readInventory(h.svc.db, {})).lines.length,
      reporting: async () => (await productionReport(h.svc, range)).rows.length,
    }
    for (const user of DEMO_USERS) {
      const actor = await actorOf(user.username)
      // The first area of the user's scope is the home screen (capoturno: the operator's).
      const home = homes[user.scope[0]!]!
      expect({ user: user.username, shown: (await home(actor)) > 0 }).toEqual({ user: user.username, shown: true })
    }
  })
})
