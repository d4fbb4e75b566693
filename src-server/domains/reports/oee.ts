import { sql } from 'kysely'
import { type OeeReport, type OeeReportInput } from '../../../src/domains/reports/schemas'
import { bucketList, dayBucketIndex, phaseLabel, rollupCte } from './queries'
import { type ReportSvc, rangeOut, n, ratio, rollupFrame } from './service'


// OEE: availability x performance (capped) x quality, by phase, department or line.

const OEE_KEYS = {
  phase: {
    key: sql`k.phase_id::text`,
    label: phaseLabel(sql`k.phase_id`),
  },
  department: { key: sql`k.department_id::text`, label: sql`coalesce((select d.name from departments d where d.id = k.department_id), '')` },
  line: { key: sql`k.line`, label: sql`k.line` },
} as const
const OEE_COL = { phase: 'phase_id', department: 'department_id', line: 'line' } as const

type OeeSums = { run_ms: number; pause_ms: number; forced_pause_ms: number; offline_ms: number; std_ms: number; pieces: number; scrapped: number }

/**
 * OEE = availability x performance x quality, per phase, department or line and per period:
 * - availability = run time / planned time, planned = run + pauses + forced pauses + offline
 *   (the pauses that follow work sessions, see sessionsCte);
 * - performance = standard time of the pieces completed (std_processing_time x pieces) / run time;
 * - quality = good pieces / pieces completed (good = completed - scrapped at batch completion).
 * Performance is given raw: above 1 it says the standard time is too long (the client warns).
 * OEE takes it capped at 1, so one batch recorded faster than its standard cannot lift OEE past 100 %.
 */
export function oeeParts(s: OeeSums) {
  const planned = s.run_ms + s.pause_ms + s.forced_pause_ms + s.offline_ms
  const availability = ratio(s.run_ms, planned)
  const performance = ratio(s.std_ms, s.run_ms)
  const quality = ratio(s.pieces - s.scrapped, s.pieces)
  const oee = availability !== null && performance !== null && quality !== null ? availability * Math.min(performance, 1) * quality : null
  return { ...s, planned_ms: planned, availability, performance, quality, oee }
}

export async function oeeReport(svc: ReportSvc, input: OeeReportInput): Promise<OeeReport> {
  const f = await rollupFrame(svc, input)
  const groupBy = input.group_by ?? 'phase'
  const col = sql.ref(OEE_COL[groupBy])
  const g = OEE_KEYS[groupBy]
  // Sessions and batches of the range from the daily rollup, open sessions and pauses added live.
  const both = sql`${rollupCte(f, input, true, groupBy === 'line')},
    parts as (
      select grp, ${dayBucketIndex(sql`day`)} as bi, run_ms, pause_ms, forced_pause_ms, offline_ms, std_ms, pieces, scrapped
      from (
        select ${col} as grp, day, sum(run_ms) as run_ms, sum(pause_ms) as pause_ms, sum(forced_pause_ms) as forced_pause_ms, sum(offline_ms) as offline_ms,
          sum(std_ms) as std_ms, sum(pieces) as pieces, sum(scrapped) as scrapped
        from rd group by 1, 2
      ) pd
    )`
  const sums = sql`sum(run_ms) as run_ms, sum(pause_ms) as pause_ms, sum(forced_pause_ms) as forced_pause_ms, sum(offline_ms) as offline_ms,
    sum(std_ms) as std_ms, sum(pieces) as pieces, sum(scrapped) as scrapped`
  type Row = { [K in keyof OeeSums]: number | null }
  // One pass over the rows: per period and per group at once (grouping sets).
  const { rows: all } = await sql<Row & { kind: 'b' | 'g'; bucket: string | null; key: string | null; label: string | null }>`
    with ${both},
    per as (select bi, grp, grouping(grp) as by_bucket, ${sums} from parts group by grouping sets ((bi), (grp))),
    k as (select grp as ${col}, per.* from per where by_bucket = 0)
    select 'g' as kind, null::text as bucket, ${g.key} as key, ${g.label} as label, k.run_ms, k.pause_ms, k.forced_pause_ms, k.offline_ms, k.std_ms, k.pieces, k.scrapped
    from k
    union all
    select 'b', s.bucket, null, null, per.run_ms, per.pause_ms, per.forced_pause_ms, per.offline_ms, per.std_ms, per.pieces, per.scrapped
    from (${bucketList(f)}) s left join per on per.bi = s.i and per.by_bucket = 1`.execute(svc.db)
  const perBucket = { rows: all.filter((r) => r.kind === 'b').sort((x, y) => (x.bucket! < y.bucket! ? -1 : 1)) as (Row & { bucket: string })[] }
  const perGroup = { rows: all.filter((r) => r.kind === 'g').sort((x, y) => n(y.run_ms) - n(x.run_ms)) }
  const toSums = (r: Row): OeeSums => ({
    run_ms: Math.round(n(r.run_ms)),
    pause_ms: Math.round(n(r.pause_ms)),
    forced_pause_ms: Math.round(n(r.forced_pause_ms)),
    offline_ms: Math.round(n(r.offline_ms)),
    std_ms: Math.round(n(r.std_ms)),
    pieces: n(r.pieces),
    scrapped: n(r.scrapped),
  })
  const buckets = perBucket.rows.map((r) => ({ bucket: r.bucket, ...oeeParts(toSums(r)) }))
  const total = buckets.reduce<OeeSums>(
    (a, b) => ({
      run_ms: a.run_ms + b.run_ms,
      pause_ms: a.pause_ms + b.pause_ms,
      forced_pause_ms: a.forced_pause_ms + b.forced_pause_ms,
      offline_ms: a.offline_ms + b.offline_ms,
      std_ms: a.std_ms + b.std_ms,
      pieces: a.pieces + b.pieces,
      scrapped: a.scrapped + b.scrapped,
    }),
    { run_ms: 0, pause_ms: 0, forced_pause_ms: 0, offline_ms: 0, std_ms: 0, pieces: 0, scrapped: 0 },
  )
  return {
    ...rangeOut(f),
    group_by: groupBy,
    totals: oeeParts(total),
    buckets,
    rows: perGroup.rows.map((r) => ({ key: r.key, label: r.label ?? '', ...oeeParts(toSums(r)) })),
  }
}

