import { sql } from 'kysely'
import type { LabourReport, LabourReportInput } from '../../../src/domains/reports/schemas'
import type { Actor, Services } from '../../context'
import { getSettings } from '../settings/service'
import { bucketList, dayBucketIndex, rollupCte } from './queries'
import { rangeOut, n, round2, rollupFrame } from './service'

// Labour and cost

/**
 * Hours per operator from work sessions started in the range (run time), with the pauses that
 * follow them shown apart by kind (pause, forced pause, offline: see sessionsCte); pieces and
 * standard time of the batches they completed; labour cost = hours x the user's hourly cost, or
 * the settings' default operator cost when the user has none. Per work order: actual hours and
 * cost against standard time (pieces x std_processing_time) at the same rates; per piece = over
 * the pieces of the work order's last phase completed in the range.
 */
export async function labourReport(svc: Services, actor: Actor, input: LabourReportInput): Promise<LabourReport> {
  const f = await rollupFrame(svc, input)
  const defaultCost = (await getSettings(svc, actor)).operator_hourly_cost ?? 0
  // Hourly cost per user, joined once (users are few): users without their own take the default.
  const rates = sql`rates as (select id as user_id, coalesce(hourly_cost, ${defaultCost}::numeric)::float8 as rate from users)`
  // Sessions and batches of the range from the daily rollup, open sessions and pauses added live.
  const rd = rollupCte(f, input, true)
  type BucketRow = { bucket: string; worked_ms: number; pause_ms: number; forced_pause_ms: number; offline_ms: number }
  type OperatorRow = {
    operator_key: string
    username: string
    name: string
    worked_ms: number
    pause_ms: number
    forced_pause_ms: number
    offline_ms: number
    sessions: number
    pieces: number
    std_ms: number
    hourly_cost: number | null
  }
  type WorkOrderRow = { work_order_key: string; code: string; product_code: string; worked_ms: number; cost: number; std_ms: number; std_cost: number; pieces: number }
  // One statement: the rollup rows of the range are read once and summed three ways (periods, operators, work orders).
  const { rows: one } = await sql<{ buckets: BucketRow[]; operators: OperatorRow[]; work_orders: WorkOrderRow[] }>`
    with ${rd}, ${rates},
    per as (
      select ${dayBucketIndex(sql`day`)} as bi, sum(run_ms) as worked_ms, sum(pause_ms) as pause_ms, sum(forced_pause_ms) as forced_pause_ms,
        sum(offline_ms) as offline_ms
      from (
        select day, sum(run_ms) as run_ms, sum(pause_ms) as pause_ms, sum(forced_pause_ms) as forced_pause_ms, sum(offline_ms) as offline_ms from rd group by day
      ) pd group by 1
    ),
    b as (
      select s.bucket, coalesce(per.worked_ms, 0) as worked_ms, coalesce(per.pause_ms, 0) as pause_ms,
        coalesce(per.forced_pause_ms, 0) as forced_pause_ms, coalesce(per.offline_ms, 0) as offline_ms
      from (${bucketList(f)}) s left join per on per.bi = s.i
    ),
    us as (
      select user_id, sum(run_ms) as worked_ms, sum(pause_ms) as pause_ms, sum(forced_pause_ms) as forced_pause_ms, sum(offline_ms) as offline_ms,
        sum(sessions) as sessions, sum(pieces) filter (where batches > 0) as pieces, sum(std_ms) filter (where batches > 0) as std_ms
      from rd group by user_id having sum(sessions) > 0 or (sum(batches) > 0 and user_id is not null)
    ),
    o as (
      select u.id as operator_key, u.username, trim(u.name || ' ' || u.surname) as name, us.worked_ms, us.pause_ms, us.forced_pause_ms, us.offline_ms,
        us.sessions, coalesce(us.pieces, 0) as pieces, coalesce(us.std_ms, 0) as std_ms, u.hourly_cost
      from us join users u on u.id = us.user_id
    ),
    wk as (
      select work_order_id, sum(run_ms) as worked_ms, sum(run_ms / 3600000.0 * coalesce(r.rate, ${defaultCost}::float8)) as cost,
        sum(std_ms) as std_ms, sum(std_ms / 3600000.0 * coalesce(r.rate, ${defaultCost}::float8)) as std_cost, coalesce(sum(pieces) filter (where final), 0) as pieces
      from rd left join rates r on r.user_id = rd.user_id group by work_order_id having sum(sessions) > 0 or sum(batches) > 0
    ),
    w as (
      select wo.id as work_order_key, wo.code, pr.code as product_code, wk.worked_ms, wk.cost, wk.std_ms, wk.std_cost, wk.pieces
      from (select * from wk order by cost desc fetch first 500 rows with ties) wk
      join work_orders wo on wo.id = wk.work_order_id join products pr on pr.id = wo.product_id
      order by wk.cost desc, wo.code
      limit 500
    )
    select (select coalesce(json_agg(b order by b.bucket), '[]') from b) as buckets,
      (select coalesce(json_agg(o order by o.worked_ms desc, o.username), '[]') from o) as operators,
      (select coalesce(json_agg(w order by w.cost desc, w.code), '[]') from w) as work_orders`.execute(svc.db)
  const parsed = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x)
  const buckets = { rows: parsed(one[0]!.buckets) as BucketRow[] }
  const operators = { rows: parsed(one[0]!.operators) as OperatorRow[] }
  const workOrders = { rows: parsed(one[0]!.work_orders) as WorkOrderRow[] }
  const ops = operators.rows.map((r) => {
    const hourly = r.hourly_cost === null ? defaultCost : n(r.hourly_cost)
    const worked = Math.round(n(r.worked_ms))
    return {
      operator_key: r.operator_key,
      username: r.username,
      name: r.name,
      worked_ms: worked,
      pause_ms: Math.round(n(r.pause_ms)),
      forced_pause_ms: Math.round(n(r.forced_pause_ms)),
      offline_ms: Math.round(n(r.offline_ms)),
      sessions: n(r.sessions),
      pieces: n(r.pieces),
      std_ms: Math.round(n(r.std_ms)),
      hourly_cost: hourly,
      default_cost: r.hourly_cost === null,
      cost: round2((worked / 3_600_000) * hourly),
    }
  })
  const bk = buckets.rows.map((r) => ({
    bucket: r.bucket,
    worked_ms: Math.round(n(r.worked_ms)),
    pause_ms: Math.round(n(r.pause_ms)),
    forced_pause_ms: Math.round(n(r.forced_pause_ms)),
    offline_ms: Math.round(n(r.offline_ms)),
  }))
  const total = (k: 'worked_ms' | 'pause_ms' | 'forced_pause_ms' | 'offline_ms') => bk.reduce((a, b) => a + b[k], 0)
  return {
    ...rangeOut(f),
    default_hourly_cost: defaultCost,
    totals: {
      worked_ms: total('worked_ms'),
      pause_ms: total('pause_ms'),
      forced_pause_ms: total('forced_pause_ms'),
      offline_ms: total('offline_ms'),
      cost: round2(ops.reduce((a, o) => a + o.cost, 0)),
      std_ms: ops.reduce((a, o) => a + o.std_ms, 0),
      pieces: ops.reduce((a, o) => a + o.pieces, 0),
    },
    buckets: bk,
    operators: ops,
    work_orders: workOrders.rows.map((r) => {
      const pieces = n(r.pieces)
      const cost = round2(n(r.cost))
      const stdCost = round2(n(r.std_cost))
      return {
        work_order_key: r.work_order_key,
        code: r.code,
        product_code: r.product_code,
        worked_ms: Math.round(n(r.worked_ms)),
        std_ms: Math.round(n(r.std_ms)),
        cost,
        std_cost: stdCost,
        pieces,
        cost_per_piece: pieces > 0 ? round2(n(r.cost) / pieces) : null,
        std_cost_per_piece: pieces > 0 ? round2(n(r.std_cost) / pieces) : null,
      }
    }),
  }
}

