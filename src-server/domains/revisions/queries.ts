import { sql } from 'kysely'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { RevisionBomLine, RevisionContent, RevisionField, RevisionPhase, RevisionSummary } from '../../../src/domains/revisions/schemas'
import type { Db } from '../../db/connect'
import { conflict } from '../../errors'
import { selectPhaseRows } from '../process/queries'

/** The phase rows of a product's draft (revision null) or of one released revision. */
export function phasesOf(db: Db, productId: string, revisionId: string | null) {
  const q = selectPhaseRows(db).where('p.product_id', '=', productId)
  return revisionId ? q.where('p.revision_id', '=', revisionId) : q.where('p.revision_id', 'is', null)
}

/** The definitions of these form fields as the library has them now (the draft's, or a release's snapshot). */
export async function currentFields(db: Db, keys: readonly string[]): Promise<Record<string, RevisionField>> {
  const uuids = keys.filter((k) => /^[0-9a-f-]{36}$/i.test(k))
  if (uuids.length === 0) return {}
  const rows = await db
    .selectFrom('form_fields')
    .select(['id as _key', 'name', 'type', 'options', 'multiple', 'mandatory', 'help_text'])
    .where('id', 'in', uuids)
    .orderBy('id')
    .execute()
  return Object.fromEntries(rows.map((f) => [f._key, f]))
}

/**
 * Everything a revision fixes (or the draft has now): the phases with their steps and bom lines,
 * and the definitions of the fields the steps use (a release's snapshot; the library's for the draft).
 */
export async function readContent(db: Db, productId: string, revision: { _key: string; form_fields: Record<string, RevisionField> } | null): Promise<RevisionContent> {
  const rows = await phasesOf(db, productId, revision?._key ?? null)
    .leftJoin('departments as d', 'd.id', 'p.department_id')
    .leftJoin('counters as c', 'c.id', 'p.counter_id')
    .select(['p.lineage', 'd.name as department_name', 'c.name as counter_name'])
    .orderBy('p.position')
    .orderBy('p.id')
    .execute()
  const ids = rows.map((r) => r._key)
  const lines = ids.length
    ? await db
        .selectFrom('bom_lines as b')
        .innerJoin('products as i', 'i.id', 'b.item_id')
        .select([
          'b.id as _key',
          'b.phase_id as phase_key',
          'b.item_id as item_key',
          'i.code as item_code',
          'i.description as item_description',
          'b.quantity',
          'b.quantity_per',
          'b.traceability',
          'b.declared_serials',
        ])
        .where('b.phase_id', 'in', ids)
        .orderBy('b.position')
        .orderBy('b.id')
        .execute()
    : []
  const bomOf = new Map<string, RevisionBomLine[]>()
  for (const l of lines) bomOf.set(l.phase_key, [...(bomOf.get(l.phase_key) ?? []), l])
  const phases: RevisionPhase[] = rows.map(({ product_id: _product, component_count: _count, ...p }) => ({
    ...p,
    parameters: withPhaseDefaults(p.parameters),
    bom: bomOf.get(p._key) ?? [],
  }))
  const used = [...new Set(phases.flatMap((p) => p.steps.flatMap((s) => s.fields)))]
  const form_fields = revision ? Object.fromEntries(used.flatMap((k) => (revision.form_fields[k] ? [[k, revision.form_fields[k]]] : []))) : await currentFields(db, used)
  return { phases, form_fields }
}

/** Revisions as lists show them, newest first. */
export function selectRevisions(db: Db) {
  return db
    .selectFrom('product_revisions as r')
    .leftJoin('users as u', 'u.id', 'r.released_by')
    .select([
      'r.id as _key',
      'r.product_id',
      'r.number',
      'r.reason',
      'r.origin',
      'r.form_fields',
      sql<RevisionSummary['released_by']>`case when u.id is null then null else json_build_object('_key', u.id, 'name', trim(u.name || ' ' || u.surname)) end`.as('released_by'),
      sql<number>`(extract(epoch from r.released_at) * 1000)::float8`.as('released_at'),
    ])
    .orderBy('r.number', 'desc')
}

/** The newest released revision of a product, if any. */
export function latestRevision(db: Db, productId: string) {
  return selectRevisions(db).where('r.product_id', '=', productId).limit(1).executeTakeFirst()
}

/**
 * A released revision whose phases use this operation, counter or department while no draft does:
 * deleting it would break that revision, and the refusal names it (409 REVISION_IN_USE).
 */
async function releasedOnlyUse(db: Db, column: 'operation_id' | 'counter_id' | 'department_id', id: string): Promise<{ product_code: string; revision: number } | undefined> {
  const draft = await db.selectFrom('product_phases').select('id').where(column, '=', id).where('revision_id', 'is', null).limit(1).execute()
  if (draft.length) return undefined
  return db
    .selectFrom('product_phases as ph')
    .innerJoin('product_revisions as r', 'r.id', 'ph.revision_id')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['p.code as product_code', 'r.number as revision'])
    .where(`ph.${column}`, '=', id)
    .orderBy('p.code')
    .orderBy('r.number', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** 409 REVISION_IN_USE naming the product and revision, when only released revisions use the row. */
export async function refuseIfOnlyReleased(db: Db, column: 'operation_id' | 'counter_id' | 'department_id', id: string): Promise<void> {
  const use = await releasedOnlyUse(db, column, id)
  if (use) {
    throw conflict('REVISION_IN_USE', `cannot delete: revision ${use.revision} of product ${use.product_code} uses it`, use)
  }
}
