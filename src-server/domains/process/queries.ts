import { sql } from 'kysely'
import type { Db } from '../../db/connect'

/** The phases of products as the API shows them (parameters and steps as stored). */
export function selectPhaseRows(db: Db) {
  return db
    .selectFrom('product_phases as p')
    .innerJoin('operations as o', 'o.id', 'p.operation_id')
    .select([
      'p.id as _key',
      'p.product_id',
      'p.position',
      'p.name',
      'p.operation_id as operation_key',
      'o.name as operation_name',
      'p.department_id as department_key',
      'p.parameters',
      'p.steps',
      'p.production_notes',
      'p.print_templates',
      'p.traceability_level',
      'p.counter_id as counter_key',
      sql<number>`(select count(*)::int from bom_lines b where b.phase_id = p.id)`.as('component_count'),
    ])
}

/** The counters a phase can name, by name (PhaseCounterChoice). */
export function selectCounterChoices(db: Db) {
  return db.selectFrom('counters').select(['id as _key', 'name', 'template']).orderBy(sql`lower(name)`).orderBy('id')
}

/** JSON that a phase's steps contain when one of them has this key (served by the GIN index). */
export const stepWithKey = (key: string) => JSON.stringify([{ _key: key }])

/**
 * The draft phase holding a step (step keys are unique across processes; a product's released
 * revisions carry the same keys, frozen).
 */
export function phaseOfStep(db: Db, stepKey: string) {
  return db
    .selectFrom('product_phases')
    .select(['id', 'product_id', 'steps'])
    .where(sql<boolean>`steps @> ${stepWithKey(stepKey)}::jsonb`)
    .where('revision_id', 'is', null)
}

/**
 * The keys among `keys` already used by a step somewhere other than this product: another
 * product's phases or an operation's default steps. Looked up by containment, in chunks.
 */
export async function stepKeysUsedElsewhere(db: Db, productId: string, keys: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>()
  for (let i = 0; i < keys.length; i += 100) {
    const chunk = keys.slice(i, i + 100)
    const wanted = new Set(chunk)
    const phases = await db
      .selectFrom('product_phases')
      .select('steps')
      .where('product_id', '<>', productId)
      .where((eb) => eb.or(chunk.map((k) => sql<boolean>`steps @> ${stepWithKey(k)}::jsonb`)))
      .execute()
    const operations = await db
      .selectFrom('operations')
      .select('default_phase_steps as steps')
      .where((eb) => eb.or(chunk.map((k) => sql<boolean>`default_phase_steps @> ${stepWithKey(k)}::jsonb`)))
      .execute()
    for (const row of [...phases, ...operations]) for (const s of row.steps) if (wanted.has(s._key)) used.add(s._key)
  }
  return used
}
