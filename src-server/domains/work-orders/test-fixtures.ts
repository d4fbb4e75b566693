import { DEFAULT_PHASE_PARAMETERS } from '../../../src/domains/process/phase-parameters'
import type { Step } from '../../../src/domains/process/steps'
import type { Db } from '../../db/connect'
import { draftFromRevision, newTestRevision } from '../../test/revisions'

/**
 * Products with a process written straight into the tables (no dependency on the library
 * services), for production tests: `makeProduct(db, { code, phases: ['Montaggio', 'Collaudo'] })`.
 * The phases are released as revision 1 (their keys are the revision's) with a draft copy.
 */
export async function makeProduct(
  db: Db,
  opts: { code: string; description?: string; phases?: string[]; active?: boolean; trashed?: boolean; stepsPerPhase?: number },
): Promise<{ key: string; phases: { key: string; name: string; steps: Step[] }[] }> {
  const operation = await ensureOperation(db)
  const { id } = await db
    .insertInto('products')
    .values({
      code: opts.code,
      description: opts.description ?? `Prodotto ${opts.code}`,
      active: opts.active ?? true,
      trashed_at: opts.trashed ? new Date() : null,
      metadata: '[]',
      print_templates: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const phases: { key: string; name: string; steps: Step[] }[] = []
  const revision = opts.phases?.length ? await newTestRevision(db, id) : null
  for (const [i, name] of (opts.phases ?? []).entries()) {
    const steps: Step[] = Array.from({ length: opts.stepsPerPhase ?? 2 }, (_, s) => ({
      _key: crypto.randomUUID(),
      type: s % 2 === 0 ? 'instruction' : 'form',
      title: `${name} ${s + 1}`,
      text: '',
      media: [],
      fields: s % 2 === 0 ? [] : [crypto.randomUUID()],
      print_templates: [],
    }))
    const phase = await db
      .insertInto('product_phases')
      .values({
        product_id: id,
        position: i,
        name,
        operation_id: operation,
        department_id: null,
        parameters: JSON.stringify(DEFAULT_PHASE_PARAMETERS),
        steps: JSON.stringify(steps),
        print_templates: '[]',
        revision_id: revision,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    phases.push({ key: phase.id, name, steps })
  }
  if (revision) await draftFromRevision(db, revision)
  return { key: id, phases }
}

async function ensureOperation(db: Db): Promise<string> {
  const found = await db.selectFrom('operations').select('id').where('name', '=', 'Test operation').executeTakeFirst()
  if (found) return found.id
  const { id } = await db.insertInto('operations').values({ name: 'Test operation', default_phase_steps: '[]' }).returning('id').executeTakeFirstOrThrow()
  return id
}
