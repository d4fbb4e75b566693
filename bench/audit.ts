import { sql } from 'kysely'
import { openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { auditTrail } from '../src-server/domains/audit/trail'
import { chainCommittedEvents, startEventChainer, stopEventChainer } from '../src-server/domains/events/chainer'
import { appendEvent } from '../src-server/domains/events/service'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, loadAverage, machineLine, percentile, table } from './lib/report'
import { env } from './lib/env'

/**
 * The event chain and the audit trail (issue 22), on a throwaway PostgreSQL database:
 * 1. Event appends by BENCH_WRITERS (50) concurrent writers, one event per transaction as the
 *    services write them, with the chain (the event chainer running in this process, as in the
 *    app) and without it (the chainer stopped), BENCH_ROUNDS (3) interleaved rounds of
 *    BENCH_SECONDS (5) each. Target: with >= 0.8x without. The chainer must keep up: what is left
 *    unlinked when a chained round ends, and how long it takes to link it, are reported too.
 * 2. The audit trail's first page (50, newest first) over BENCH_AUDIT_EVENTS (5,000,000) events,
 *    unfiltered, by user and by an entity code, 30 runs each. Target: unfiltered p50 < 100 ms.
 */

export const auditBench: BenchModule = {
  name: 'audit',
  title: 'event appends with and without the chain; the audit trail over millions of events',
  async run(ctx: BenchContext) {
    const writers = env('BENCH_WRITERS', 50)
    const seconds = env('BENCH_SECONDS', 5)
    const rounds = env('BENCH_ROUNDS', 3)
    const events = env('BENCH_AUDIT_EVENTS', 5_000_000)
    const made = await createThrowawayDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, 'mes_bench_audit')
    ctx.onCleanup(() => made.drop())
    const opened = openPostgres(made.url, writers + 2)
    ctx.onCleanup(() => opened.close())
    const db = opened.db
    await migrateToLatest(db)
    const load0 = loadAverage()

    // 1. Appends per second, chained vs not.
    const appendsFor = async (ms: number) => {
      let n = 0
      const until = performance.now() + ms
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          while (performance.now() < until) {
            await db.transaction().execute((trx) => appendEvent(trx, null, { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: `bench-${w}`, data: { n } }))
            n++
          }
        }),
      )
      return n / (ms / 1000)
    }
    const unlinked = async () =>
      Number(
        (
          await sql<{ n: number }>`select count(*)::int as n from events e where e.xid >= (select watermark from event_chain_head)
            and not exists (select 1 from event_chain c where c.event_id = e.id)`.execute(db)
        ).rows[0]!.n,
      )
    const lag = { left: [] as number[], ms: [] as number[] }
    const chain = async (on: boolean) => {
      if (!on) return stopEventChainer(db)
      // Events appended while it was stopped are linked before the round is timed.
      await chainCommittedEvents(db)
      startEventChainer(db)
    }
    await chain(true)
    await appendsFor(1000)
    const rates = { chained: [] as number[], plain: [] as number[] }
    for (let r = 0; r < rounds; r++) {
      await chain(true)
      rates.chained.push(await appendsFor(seconds * 1000))
      lag.left.push(await unlinked())
      const s = performance.now()
      while ((await unlinked()) > 0) await Bun.sleep(5)
      lag.ms.push(performance.now() - s)
      await chain(false)
      rates.plain.push(await appendsFor(seconds * 1000))
    }
    const median = (xs: number[]) => percentile(xs, 50)
    const ratio = median(rates.chained) / median(rates.plain)

    // 2. The trail's first page over many events (bulk-made: the chain is not what is measured here).
    await chain(false)
    await sql`update event_chain_head set watermark = pg_snapshot_xmin(pg_current_snapshot())`.execute(db)
    const { id: userId } = await db.insertInto('users').values({ username: 'bench.auditor', scope: 'audit', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow()
    const t0 = performance.now()
    await sql`insert into events (event_type, user_id, subject_type, subject_key, data, created_at)
      select 'WORK_ORDER_UPDATED', case when g % 100 = 0 then ${userId}::uuid else null end, 'work_order', 'wo-' || (g % 100000),
        jsonb_build_object('code', 'WO' || lpad((g % 100000)::text, 6, '0'), 'reason', 'bench', 'changes', jsonb_build_object('quantity', jsonb_build_object('from', g, 'to', g + 1))),
        now() - make_interval(secs => ${events} - g)
      from generate_series(1, ${events}) g`.execute(db)
    const seedS = (performance.now() - t0) / 1000
    await sql`vacuum analyze events`.execute(db)
    const time = async (input: Parameters<typeof auditTrail>[1]) => {
      for (let i = 0; i < 3; i++) await auditTrail(db, input)
      const ts: number[] = []
      for (let i = 0; i < 30; i++) {
        const s = performance.now()
        await auditTrail(db, input)
        ts.push(performance.now() - s)
      }
      return [percentile(ts, 50), percentile(ts, 99)] as const
    }
    const first = await time({ limit: 50 })
    const byUser = await time({ limit: 50, user: 'bench.auditor' })
    const byCode = await time({ limit: 50, code: 'WO000042' })
    const deep = (await auditTrail(db, { limit: 50, before: Math.floor(events / 2) })).rows.length
    const page1000 = await time({ limit: 50, before: events - 50_000 })

    const f = (x: number) => x.toFixed(1)
    const t = table(
      ['measure', 'value', 'target', 'verdict'],
      [
        ['appends/s with the chain (median of rounds)', rates.chained.map((x) => x.toFixed(0)).join(' / '), '', ''],
        ['appends/s without the chain (median of rounds)', rates.plain.map((x) => x.toFixed(0)).join(' / '), '', ''],
        ['with / without', ratio.toFixed(3), '>= 0.8', ratio >= 0.8 ? 'met' : 'MISSED'],
        ['left unlinked when a chained round ended / linked within (ms)', lag.left.map((n, i) => `${n} / ${lag.ms[i]!.toFixed(0)}`).join(', '), '', ''],
        [`trail first page over ${events.toLocaleString('en')} events, p50 / p99 ms`, `${f(first[0])} / ${f(first[1])}`, 'p50 < 100', first[0] < 100 ? 'met' : 'MISSED'],
        ['trail page 1,000 (keyset), p50 / p99 ms', `${f(page1000[0])} / ${f(page1000[1])}`, '', ''],
        ['trail by user (1 % of events), p50 / p99 ms', `${f(byUser[0])} / ${f(byUser[1])}`, '', ''],
        ['trail by work order code, p50 / p99 ms', `${f(byCode[0])} / ${f(byCode[1])}`, '', ''],
      ],
      [false, true, false, false],
    )
    if (deep !== 50) throw new Error(`a page in the middle of the trail should hold 50 events, not ${deep}`)
    console.log(t.text)
    appendResults(
      'audit: event appends with and without the chain; the audit trail over millions of events',
      [
        `Command: \`${ctx.command}\``,
        '',
        `What: ${writers} writers appending one event per transaction (appendEvent) for ${seconds} s per round, ${rounds} interleaved rounds with the event chainer running and stopped; then the audit trail (auditTrail, the service behind GET audit-trail) over ${events.toLocaleString('en')} events made in one INSERT (${seedS.toFixed(0)} s), 30 runs after 3 warm-ups.`,
        `Machine: ${machineLine()}; ${load0} before, ${loadAverage()} after.`,
        '',
        t.markdown,
      ].join('\n'),
    )
  },
}
