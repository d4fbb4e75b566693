import { sql } from 'kysely'
import { type CounterFrequency, periodStart } from '../../../src/domains/counters/template'
import type { Services } from '../../context'

/** Demo counters: monthly pump serials, yearly lots, a weekly board counter, yearly motor groups. */
export const DEMO_COUNTERS: { name: string; template: string; frequency: CounterFrequency }[] = [
  { name: 'Seriali pompe', template: 'SN{YY}{MM}-{#####}', frequency: 'month' },
  { name: 'Lotti di produzione', template: 'LOT-{YYYY}-{####}', frequency: 'year' },
  { name: 'Schede elettroniche', template: 'PCB{YY}W{WW}-{###}', frequency: 'week' },
  { name: 'Gruppi motore', template: 'GM{YY}-{####}', frequency: 'year' },
]

/** Idempotent: a counter whose name exists (any case) is left as it is. */
export async function seedDemoCounters(svc: Services): Promise<string[]> {
  const now = svc.clock.now()
  const inserted = await svc.db
    .insertInto('counters')
    .values(DEMO_COUNTERS.map((c) => ({ ...c, period_start: periodStart(now, c.frequency), created_at: now, updated_at: now })))
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returning('name')
    .execute()
  return inserted.map((r) => r.name)
}
