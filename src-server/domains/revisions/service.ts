import { sql } from 'kysely'
import { diffRevisions, type RevisionDiff } from '../../../src/domains/revisions/diff'
import type { DiffSide, ReleaseInput, Revision, RevisionContent, RevisionList, RevisionSummary } from '../../../src/domains/revisions/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, notFound, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { lockProduct, productNotFound } from '../products/service'
import { actionSignature, signRecord } from '../signatures/actions'
import { signaturesBySubject } from '../signatures/service'
import { latestRevision, readContent, selectRevisions } from './queries'

/**
 * Change control (issue 21, docs/revisions.md). A product's process and bom rows with
 * revision_id null are its draft, which the library edits; `POST product/{key}/revision`
 * copies the draft into revision N+1 (new phase and line ids, the same lineage and step keys),
 * whose rows the database keeps frozen. Work orders are made from the latest revision and their
 * jobs point at its phases, so nothing done to the draft reaches running work.
 * - Numbers go 1, 2, 3 ... per product: taken under the product's row lock, never skipped.
 * - Releasing needs a reason, a draft with phases (422 PROCESS_EMPTY) that differs from the
 *   latest revision (409 NOTHING_TO_RELEASE). Event REVISION_RELEASED. Signed when the settings
 *   require it (signatures/actions.ts).
 * - Discarding the draft makes it a copy of the latest revision again (409 NO_REVISION when
 *   there is none). Event REVISION_DRAFT_DISCARDED.
 */

type StoredRevision = NonNullable<Awaited<ReturnType<typeof latestRevision>>>

/** Revisions as read, each with its release's signatures (checked against the revision today). */
async function summaries(db: Db, rows: readonly StoredRevision[]): Promise<RevisionSummary[]> {
  const signed = await signaturesBySubject(
    db,
    'revision',
    rows.map((r) => r._key),
  )
  return rows.map(({ product_id: _p, form_fields: _f, ...r }) => ({ ...r, signatures: signed.get(r._key) ?? [] }))
}
const summary = async (db: Db, row: StoredRevision): Promise<RevisionSummary> => (await summaries(db, [row]))[0]!

const revisionNotFound = (number: number | string) => notFound('UNKNOWN_REVISION', `no revision ${number} of this product`)

async function productId(db: Db, key: string): Promise<string> {
  const row = isUuid(key) ? await db.selectFrom('products').select('id').where('id', '=', key).executeTakeFirst() : undefined
  if (!row) throw productNotFound()
  return row.id
}

async function revisionByNumber(db: Db, product: string, number: number): Promise<StoredRevision> {
  const row = await selectRevisions(db).where('r.product_id', '=', product).where('r.number', '=', number).executeTakeFirst()
  if (!row) throw revisionNotFound(number)
  return row
}

/** The draft differs from the latest revision (with none, it has phases to release). */
function draftChanged(latest: RevisionContent | null, draft: RevisionContent): boolean {
  return latest ? diffRevisions(latest, draft).changed : draft.phases.length > 0
}

/** `GET product/{key}/revision`: the released revisions, newest first, and whether the draft has changes. */
export async function listRevisions(svc: Pick<Services, 'db'>, productKey: string): Promise<RevisionList> {
  const product = await productId(svc.db, productKey)
  const rows = await selectRevisions(svc.db).where('r.product_id', '=', product).execute()
  const latest = rows[0]
  const [latestContent, draft] = await Promise.all([latest ? readContent(svc.db, product, latest) : null, readContent(svc.db, product, null)])
  return { product_key: product, revisions: await summaries(svc.db, rows), draft_changed: draftChanged(latestContent, draft) }
}

/** One revision's number, reason and who released it when, without its content (a work order's history record). */
export async function revisionSummary(svc: Pick<Services, 'db'>, productKey: string, number: number): Promise<RevisionSummary> {
  return summary(svc.db, await revisionByNumber(svc.db, await productId(svc.db, productKey), number))
}

/** `GET product/{key}/revision/{number}`: one revision, its whole process and bom as released. */
export async function getRevision(svc: Pick<Services, 'db'>, productKey: string, number: number): Promise<Revision> {
  const product = await productId(svc.db, productKey)
  const row = await revisionByNumber(svc.db, product, number)
  return { product_key: product, ...(await summary(svc.db, row)), ...(await readContent(svc.db, product, row)) }
}

async function sideContent(db: Db, product: string, side: DiffSide): Promise<RevisionContent> {
  return side === 'draft' ? readContent(db, product, null) : readContent(db, product, await revisionByNumber(db, product, side))
}

/** `GET product/{key}/revision-diff?from=&to=`: what changed from one side to the other (the draft or a revision). */
export async function diff(svc: Pick<Services, 'db'>, productKey: string, from: DiffSide, to: DiffSide): Promise<RevisionDiff> {
  const product = await productId(svc.db, productKey)
  const [a, b] = await Promise.all([sideContent(svc.db, product, from), sideContent(svc.db, product, to)])
  return diffRevisions(a, b)
}

/**
 * Copies the phases and bom lines of one side (the draft, or a revision) as new rows of another
 * (a new revision, or the draft): new ids, the same lineage and step keys; the print templates
 * assigned to each phase follow it.
 */
async function copyRows(trx: Db, product: string, from: string | null, to: string | null): Promise<void> {
  const phases = await trx
    .selectFrom('product_phases')
    .select('id')
    .where('product_id', '=', product)
    .where('revision_id', from ? '=' : 'is', from)
    .execute()
  if (phases.length === 0) return
  const pairs = phases.map((p) => [p.id, crypto.randomUUID()] as const)
  const map = sql`(values ${sql.join(pairs.map(([a, b]) => sql`(${a}::uuid, ${b}::uuid)`))}) as m(old_id, new_id)`
  await sql`
    insert into product_phases (id, product_id, position, name, operation_id, department_id, parameters, steps,
      production_notes, print_templates, traceability_level, counter_id, created_at, updated_at, revision_id, lineage)
    select m.new_id, ph.product_id, ph.position, ph.name, ph.operation_id, ph.department_id, ph.parameters, ph.steps,
      ph.production_notes, ph.print_templates, ph.traceability_level, ph.counter_id, now(), now(), ${to}::uuid, ph.lineage
    from product_phases ph join ${map} on m.old_id = ph.id`.execute(trx)
  await sql`
    insert into bom_lines (product_id, phase_id, item_id, position, quantity, quantity_per, traceability, declared_serials, revision_id)
    select b.product_id, m.new_id, b.item_id, b.position, b.quantity, b.quantity_per, b.traceability, b.declared_serials, ${to}::uuid
    from bom_lines b join ${map} on m.old_id = b.phase_id`.execute(trx)
  await sql`
    insert into print_template_assignments (template_id, context, context_key)
    select a.template_id, a.context, m.new_id::text
    from print_template_assignments a join ${map} on a.context = 'phase' and a.context_key = m.old_id::text`.execute(trx)
}

/** `POST product/{key}/revision`: the draft becomes revision N+1 (library scope, a reason required). */
export async function release(svc: Services, actor: Actor, productKey: string, input: ReleaseInput, ip: string | null = null): Promise<RevisionSummary> {
  const signature = await actionSignature(svc, actor, 'revision_release', input.signature, ip)
  const now = svc.clock.now()
  const created = await svc.db.transaction().execute(async (trx) => {
    // The product's row lock orders concurrent releases: each reads the number the last one took.
    const product = await lockProduct(trx, productKey)
    const latest = await latestRevision(trx, product.id)
    const draft = await readContent(trx, product.id, null)
    if (draft.phases.length === 0) throw unprocessable('PROCESS_EMPTY', 'the draft has no phases: add the process before releasing')
    if (!draftChanged(latest ? await readContent(trx, product.id, latest) : null, draft)) {
      throw conflict('NOTHING_TO_RELEASE', `the draft equals revision ${latest!.number}: change it before releasing`, { revision: latest!.number })
    }
    const number = (latest?.number ?? 0) + 1
    const { id } = await trx
      .insertInto('product_revisions')
      .values({ product_id: product.id, number, reason: input.reason, released_by: actor.userId, released_at: now, form_fields: JSON.stringify(draft.form_fields) })
      .returning('id')
      .executeTakeFirstOrThrow()
    await copyRows(trx, product.id, null, id)
    await appendEvent(
      trx,
      actor,
      { event_type: 'REVISION_RELEASED', subject_type: 'product', subject_key: product.id, data: { code: product.code, revision_key: id, number, reason: input.reason } },
      now,
    )
    if (signature) await signRecord(trx, actor, signature, { type: 'revision', key: id, event: { subject_type: 'product', subject_key: product.id } }, now)
    return { product: product.id, number }
  })
  return summary(svc.db, await revisionByNumber(svc.db, created.product, created.number))
}

/** `DELETE product/{key}/draft`: the draft is reset to the latest revision (its changes are lost). */
export async function discardDraft(svc: Services, actor: Actor, productKey: string): Promise<RevisionList> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productKey)
    const latest = await latestRevision(trx, product.id)
    if (!latest) throw conflict('NO_REVISION', 'the product has no released revision to go back to')
    const draft = await trx.selectFrom('product_phases').select('id').where('product_id', '=', product.id).where('revision_id', 'is', null).execute()
    const ids = draft.map((p) => p.id)
    if (ids.length) {
      await trx.deleteFrom('bom_lines').where('phase_id', 'in', ids).execute()
      await trx.deleteFrom('print_template_assignments').where('context', '=', 'phase').where('context_key', 'in', ids).execute()
      await trx.deleteFrom('product_phases').where('id', 'in', ids).execute()
    }
    await copyRows(trx, product.id, latest._key, null)
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', product.id).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'REVISION_DRAFT_DISCARDED', subject_type: 'product', subject_key: product.id, data: { code: product.code, number: latest.number } },
      now,
    )
  })
  return listRevisions(svc, productKey)
}
