import { beforeAll, describe, expect, test } from 'bun:test'
import type { IssueListInput } from '../../../src/domains/issues/schemas'
import { sessionFor } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { actOnIssue, listIssues } from './service'
import { type IssueWorld, makeIssueWorld, openIssue } from './test-fixtures'

const DAY = 86_400_000

/** The issues overview: each filter, the counts per state, sorting and paging. */
describe('issues: list filters, counts, order', () => {
  const h = useHarness()
  let w: IssueWorld
  const keys: Record<string, string> = {}
  const codes: Record<string, string> = {}
  const list = async (input: IssueListInput = {}) => {
    const page = await listIssues(h.svc, input)
    return { ...page, names: page.rows.map((r) => Object.keys(keys).find((k) => keys[k] === r._key)) }
  }
  const names = async (input: IssueListInput) => (await list(input)).names.sort()

  beforeAll(async () => {
    w = await makeIssueWorld(h, 'lst')
    // One issue a day, from 2026-01-05 08:00 local time on: the newest is the last one.
    h.clock.set(new Date(2026, 0, 5, 8))
    const open = async (name: string, input: Parameters<typeof openIssue>[2]) => {
      const issue = await openIssue(h, w, input)
      keys[name] = issue._key
      codes[name] = issue.code
      h.clock.advance(DAY)
    }
    await open('job', { job_key: w.wo.jobs[0]!, title: 'Perdita olio', critical: true })
    await open('job2', { job_key: w.wo.jobs[1]!, title: 'Graffio sul carter', description: 'lato 50% visibile' })
    await open('wo', { work_order_key: w.wo.id, title: 'Materiale in ritardo', type_key: w.types.hours4 })
    await open('wo2', { work_order_key: w.wo2.id, title: 'Etichette errate' })
    await open('product', { product_key: w.otherProduct.id, title: 'Disegno obsoleto', critical: true })
    await open('generic', { title: 'Pavimento scivoloso', type_key: w.types.critical })
    for (const [name, action] of [['job2', 'close'], ['wo2', 'close'], ['wo2', 'reopen'], ['product', 'close']] as const) {
      await actOnIssue(h.svc, w.quality.actor, keys[name]!, action)
      h.clock.advance(1000)
    }
  })

  test('newest first by default, with the total and the counts per state', async () => {
    const page = await list()
    expect(page.names).toEqual(['generic', 'product', 'wo2', 'wo', 'job2', 'job'])
    expect(page.total).toBe(6)
    // Critical counts the critical issues that are not closed (the closed critical product issue is left out).
    expect(page.counts).toEqual({ open: 3, closed: 2, reopened: 1, critical: 2 })
  })

  test('state: one or several; the counts ignore the state filter', async () => {
    const open = await list({ state: ['open'] })
    expect(open.names.sort()).toEqual(['generic', 'job', 'wo'])
    expect(open.total).toBe(3)
    expect(open.counts).toEqual({ open: 3, closed: 2, reopened: 1, critical: 2 })
    expect(await names({ state: ['closed', 'reopened'] })).toEqual(['job2', 'product', 'wo2'])
  })

  test('critical, type, context type', async () => {
    expect(await names({ critical: true })).toEqual(['generic', 'job', 'product'])
    expect(await names({ critical: false })).toEqual(['job2', 'wo', 'wo2'])
    expect(await names({ type_key: w.types.hours4 })).toEqual(['wo'])
    expect(await names({ context_type: 'job' })).toEqual(['job', 'job2'])
    expect(await names({ context_type: 'generic' })).toEqual(['generic'])
    const critical = await list({ critical: true })
    expect(critical.counts).toEqual({ open: 2, closed: 1, reopened: 0, critical: 2 })
  })

  test('job, work order (its own issues and its jobs\'), product (its work orders\' and jobs\' too)', async () => {
    expect(await names({ job_key: w.wo.jobs[0]! })).toEqual(['job'])
    expect(await names({ work_order_key: w.wo.id })).toEqual(['job', 'job2', 'wo'])
    expect(await names({ work_order_key: w.wo2.id })).toEqual(['wo2'])
    expect(await names({ product_key: w.product.id })).toEqual(['job', 'job2', 'wo', 'wo2'])
    expect(await names({ product_key: w.otherProduct.id })).toEqual(['product'])
    expect(await names({ work_order_key: crypto.randomUUID() })).toEqual([])
  })

  test('date range: creation days on the plant calendar, both ends included', async () => {
    expect(await names({ from: '2026-01-07' })).toEqual(['generic', 'product', 'wo', 'wo2'])
    expect(await names({ to: '2026-01-06' })).toEqual(['job', 'job2'])
    expect(await names({ from: '2026-01-06', to: '2026-01-07' })).toEqual(['job2', 'wo'])
    expect(await names({ from: '2026-01-07', to: '2026-01-07' })).toEqual(['wo'])
    expect(await names({ from: '2026-01-08', to: '2026-01-07' })).toEqual([])
    const ranged = await list({ from: '2026-01-05', to: '2026-01-06', state: ['open'] })
    expect(ranged.counts).toEqual({ open: 1, closed: 1, reopened: 0, critical: 1 })
  })

  test('date range over REST: YYYY/MM/DD (SPEC 5) and YYYY-MM-DD alike; a wrong day says what is wrong', async () => {
    // A session made now: the clock moved on days since the world's sessions were made.
    const token = await sessionFor(h, w.quality.actor.userId)
    const rest = async (query: string) => {
      const res = await h.request('GET', `/api/issue?${query}`, { token })
      return { status: res.status, message: res.body.detail.message as string | undefined, total: res.body.detail.total as number | undefined }
    }
    expect((await rest('from=2026/01/06&to=2026-01-07')).total).toBe(2)
    expect((await rest('from=2026-01-06&to=2026/01/07')).total).toBe(2)
    expect((await rest('to=1999/12/01')).total).toBe(0)
    expect(await rest('from=2026/02/30')).toEqual({ status: 400, message: 'from: 2026/02/30 is not a calendar date: February 2026 has 28 days', total: undefined })
    expect(await rest('to=07/01/2026')).toEqual({ status: 400, message: 'to: "07/01/2026" is not a date: dates are written YYYY/MM/DD or YYYY-MM-DD', total: undefined })
  })

  test('search: every word must match code, title, description, type, work order or product code; LIKE characters are literal', async () => {
    expect(await names({ search: 'olio' })).toEqual(['job'])
    expect(await names({ search: 'PERDITA olio' })).toEqual(['job'])
    expect(await names({ search: 'perdita carter' })).toEqual([])
    expect(await names({ search: codes.wo2! })).toEqual(['wo2'])
    expect(await names({ search: 'lst-h4' })).toEqual(['wo'])
    expect(await names({ search: 'Tipo lst-CRIT' })).toEqual(['generic'])
    expect(await names({ search: 'lst-WO1' })).toEqual(['job', 'job2', 'wo'])
    expect(await names({ search: 'lst-OTHER' })).toEqual(['product'])
    expect(await names({ search: '50%' })).toEqual(['job2'])
    expect(await names({ search: '5_%' })).toEqual([])
    expect(await names({ search: '   ' })).toHaveLength(6)
  })

  test('sorting by each column, both ways; pages do not overlap', async () => {
    expect((await list({ sort: 'created_at', dir: 'asc' })).names).toEqual(['job', 'job2', 'wo', 'wo2', 'product', 'generic'])
    expect((await list({ sort: 'code', dir: 'asc' })).names).toEqual(['job', 'job2', 'wo', 'wo2', 'product', 'generic'])
    expect((await list({ sort: 'title', dir: 'asc' })).names).toEqual(['product', 'wo2', 'job2', 'wo', 'generic', 'job'])
    expect((await list({ sort: 'state', dir: 'asc' })).names.slice(0, 2).sort()).toEqual(['job2', 'product'])
    expect((await list({ sort: 'type', dir: 'desc' })).names.slice(0, 4).sort()).toEqual(['job', 'job2', 'product', 'wo2'])
    // wo2 was reopened last: the most recent opened_at and updated_at.
    expect((await list({ sort: 'opened_at', dir: 'desc' })).names[0]).toBe('wo2')
    expect((await list({ sort: 'updated_at', dir: 'desc' })).names[0]).toBe('product')
    const pages = [await list({ page_size: 4 }), await list({ page_size: 4, page: 2 })]
    expect(pages.flatMap((p) => p.names)).toEqual(['generic', 'product', 'wo2', 'wo', 'job2', 'job'])
    expect(pages.map((p) => p.total)).toEqual([6, 6])
  })
})
