import { sql } from 'kysely'
import * as v from 'valibot'
import {
  type AssignmentsInput,
  BASE_PDF_MAX_BYTES,
  PRESETS,
  type PrintTemplateRow,
  SETTINGS_LABELS,
  type TemplateBlankInput,
  type TemplateField,
  TemplateFields,
  type TemplateListInput,
  type TemplatePatchInput,
} from '../../../src/domains/printing/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, badRequest, conflict, notFound } from '../../errors'
import { inputIssues, invalidField, invalidInput } from '../../input-issues'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { assertFieldsUsable } from '../form-fields/service'
import { blankLabelPdf } from './blank-label'
import { inspectBasePdf } from './fill'
import { basePdfKey, selectTemplateRows } from './queries'

/**
 * Print templates (SPEC 3 Print template; SPEC 7 `GET print-template`, `POST
 * update-template-assignments`): a base PDF in the file store plus fields placed on its pages.
 * Events: PRINT_TEMPLATE_CREATED, PRINT_TEMPLATE_UPDATED (data: the changed keys),
 * PRINT_TEMPLATE_TRASHED, PRINT_TEMPLATE_RESTORED, PRINT_TEMPLATE_ASSIGNED, PRINT_TEMPLATE_UNASSIGNED.
 */

const templateNotFound = () => notFound('UNKNOWN_PRINT_TEMPLATE', 'print template not found')

export async function getTemplate(svc: Services | { db: Db }, key: string): Promise<PrintTemplateRow> {
  const row = isUuid(key) ? await selectTemplateRows(svc.db).where('t.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw templateNotFound()
  return row
}

/** A template that can be printed or assigned: it exists and is not in the trash. */
export async function usableTemplate(db: Db, key: string): Promise<PrintTemplateRow> {
  const row = await getTemplate({ db }, key)
  if (row.trash) throw conflict('PRINT_TEMPLATE_IN_TRASH', `the print template ${row.name} is in the trash`)
  return row
}

/**
 * Fields as stored: presets that exist, custom fields that are form fields (not archived), each
 * box inside its page. Refusals: 400 INVALID_INPUT (unknown preset, a page the PDF lacks),
 * 400 UNKNOWN_FIELD / FIELD_ARCHIVED, 400 PRINT_FIELD_OUTSIDE.
 */
async function checkedFields(db: Db, fields: readonly TemplateField[], pdf: { pages: number; width: number; height: number }, previous: readonly TemplateField[] = []) {
  const custom: string[] = []
  for (const [i, f] of fields.entries()) {
    if (f.link_type === 'preset' && !(PRESETS as readonly string[]).includes(f.link)) {
      throw invalidField({ path: `fields.${i}.link`, kind: 'choice', message: `unknown preset ${f.link}; one of ${PRESETS.join(', ')}` })
    }
    if (f.link_type === 'custom_field') {
      if (!isUuid(f.link)) throw badRequest('UNKNOWN_FIELD', `unknown form field: ${f.link}`, { fields: [f.link] })
      custom.push(f.link.toLowerCase())
    }
    if (f.page > pdf.pages) throw invalidField({ path: `fields.${i}.page`, kind: 'max_value', limit: pdf.pages, message: `the base PDF has ${pdf.pages} page(s)` })
    // Page sizes other than the first are not stored: the first page bounds every field.
    if (f.x + f.width > pdf.width + 0.5 || f.y + f.height > pdf.height + 0.5) {
      throw badRequest('PRINT_FIELD_OUTSIDE', `the field ${f.name} goes outside the page (${Math.round(pdf.width)} x ${Math.round(pdf.height)} pt)`, { field: f.name })
    }
  }
  const names = fields.map((f) => f.name.toLowerCase())
  const repeated = names.find((n, i) => names.indexOf(n) !== i)
  if (repeated) throw invalidField({ path: 'fields', kind: 'duplicate', message: `the field name ${repeated} appears more than once` })
  const kept = new Set(previous.filter((f) => f.link_type === 'custom_field').map((f) => f.link.toLowerCase()))
  await assertFieldsUsable(db, [...new Set(custom)], kept)
  return fields.map((f) => (f.link_type === 'custom_field' ? { ...f, link: f.link.toLowerCase() } : f))
}

function parseFieldsText(text: string | undefined): TemplateField[] {
  if (text === undefined || text.trim() === '') return []
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw invalidField({ path: 'fields', kind: 'type', message: 'fields must be a JSON array' })
  }
  const parsed = v.safeParse(TemplateFields, raw)
  if (!parsed.success) throw invalidInput(inputIssues(parsed.issues).map((i) => ({ ...i, path: `fields.${i.path}`.replace(/\.$/, '') })))
  return parsed.output
}

/** Reads an uploaded base PDF: 413 above the limit, 400 BASE_PDF_INVALID when it is not a PDF. */
async function readBasePdf(file: File) {
  if (file.size > BASE_PDF_MAX_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE', `the base PDF is larger than ${BASE_PDF_MAX_BYTES / 1024 / 1024} MiB`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const info = await inspectBasePdf(bytes)
  if (!info) throw badRequest('BASE_PDF_INVALID', 'the base file is not a readable PDF (or it is encrypted, or has no pages)')
  return { bytes, info }
}

const displayName = (name: string) => (name.replace(/[\\/\u0000-\u001f]/g, '_').trim() || 'base.pdf').slice(0, 200)

/** `POST print-template` (multipart): name, base_pdf, optional fields (JSON), context, context_key. */
export async function createTemplate(
  svc: Services,
  actor: Actor,
  input: { name: string; base_pdf: File; fields?: string; context?: string; context_key?: string },
): Promise<PrintTemplateRow> {
  const { bytes, info } = await readBasePdf(input.base_pdf)
  const fields = await checkedFields(svc.db, parseFieldsText(input.fields), info)
  return storeTemplate(svc, actor, { ...input, bytes, info, fields, baseName: displayName(input.base_pdf.name) })
}

/**
 * `POST print-template/blank`: a template whose base is one blank page of the size asked, so a
 * label can be designed in the app without a PDF made elsewhere (issue 26).
 */
export async function createBlankTemplate(svc: Services, actor: Actor, input: TemplateBlankInput): Promise<PrintTemplateRow> {
  const bytes = await blankLabelPdf(input.width_mm, input.height_mm)
  const info = (await inspectBasePdf(bytes))!
  const size = `${+input.width_mm.toFixed(1)}x${+input.height_mm.toFixed(1)}mm`
  return storeTemplate(svc, actor, { ...input, bytes, info, fields: [], baseName: `blank-${size}.pdf` })
}

async function storeTemplate(
  svc: Services,
  actor: Actor,
  input: {
    name: string
    bytes: Uint8Array
    info: { pages: number; width: number; height: number }
    baseName: string
    fields: TemplateField[]
    context?: string
    context_key?: string
  },
): Promise<PrintTemplateRow> {
  const { bytes, info, fields } = input
  const id = crypto.randomUUID()
  const storage = basePdfKey(id)
  await svc.files.put(storage, bytes)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('print_templates')
        .values({
          id,
          name: input.name,
          base_pdf_key: storage,
          base_pdf_name: input.baseName,
          pages: info.pages,
          page_width: info.width,
          page_height: info.height,
          fields: JSON.stringify(fields),
          context: input.context || null,
          context_key: input.context_key || null,
          created_at: now,
          updated_at: now,
        })
        .execute()
      await appendEvent(trx, actor, { event_type: 'PRINT_TEMPLATE_CREATED', subject_type: 'print_template', subject_key: id, data: { name: input.name, fields: fields.length } }, now)
    })
  } catch (e) {
    await svc.files.delete(storage)
    throw e
  }
  return getTemplate(svc, id)
}

/** `PUT print-template/{key}/base` (multipart base_pdf): a new base PDF; the fields must still fit. */
export async function replaceBasePdf(svc: Services, actor: Actor, key: string, file: File): Promise<PrintTemplateRow> {
  const old = await getTemplate(svc, key)
  const { bytes, info } = await readBasePdf(file)
  await checkedFields(svc.db, old.fields, info, old.fields)
  const now = svc.clock.now()
  await svc.files.put(basePdfKey(key), bytes)
  await svc.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('print_templates')
      .set({ base_pdf_name: displayName(file.name), pages: info.pages, page_width: info.width, page_height: info.height, updated_at: now })
      .where('id', '=', key)
      .execute()
    await appendEvent(trx, actor, { event_type: 'PRINT_TEMPLATE_UPDATED', subject_type: 'print_template', subject_key: key, data: editData({ base_pdf: { from: old.base_pdf_name, to: displayName(file.name) } }) }, now)
  })
  return getTemplate(svc, key)
}

/** `PATCH print-template/{key}`: name, fields, context and key, temp flag, trash (true) or restore (false). */
export async function patchTemplate(svc: Services, actor: Actor, key: string, patch: TemplatePatchInput): Promise<PrintTemplateRow> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const old = isUuid(key) ? await trx.selectFrom('print_templates').selectAll().where('id', '=', key).forUpdate().executeTakeFirst() : undefined
    if (!old) throw templateNotFound()
    const set: Record<string, unknown> = {}
    const changed: string[] = []
    if (patch.name !== undefined && patch.name !== old.name) (set.name = patch.name), changed.push('name')
    if (patch.fields !== undefined) {
      const fields = await checkedFields(trx, patch.fields, { pages: old.pages, width: old.page_width, height: old.page_height }, old.fields)
      if (JSON.stringify(fields) !== JSON.stringify(old.fields)) (set.fields = JSON.stringify(fields)), changed.push('fields')
    }
    if (patch.context !== undefined && (patch.context || null) !== old.context) (set.context = patch.context || null), changed.push('context')
    if (patch.context_key !== undefined && (patch.context_key || null) !== old.context_key) (set.context_key = patch.context_key || null), changed.push('context_key')
    if (patch.temp !== undefined && patch.temp !== old.temp) (set.temp = patch.temp), changed.push('temp')
    const trashChange = patch.trash !== undefined && patch.trash !== (old.trashed_at !== null)
    if (trashChange) set.trashed_at = patch.trash ? now : null
    if (Object.keys(set).length === 0) return
    await trx.updateTable('print_templates').set({ ...set, updated_at: now }).where('id', '=', key).execute()
    if (changed.length) {
      await appendEvent(trx, actor, { event_type: 'PRINT_TEMPLATE_UPDATED', subject_type: 'print_template', subject_key: key, data: editData(changesOf(old, set, changed)) }, now)
    }
    if (trashChange) {
      await appendEvent(trx, actor, { event_type: patch.trash ? 'PRINT_TEMPLATE_TRASHED' : 'PRINT_TEMPLATE_RESTORED', subject_type: 'print_template', subject_key: key, data: { name: old.name } }, now)
    }
  })
  return getTemplate(svc, key)
}

/**
 * The templates of one place, not in the trash, by name: those assigned there
 * (`update-template-assignments`), those whose own context and context key match (any case), and
 * those the place lists itself (print_templates of a product, phase, issue type; for a phase
 * also its operation's), and for products and positions the settings' label template. Keys in
 * those lists that name no template are left out.
 */
/**
 * The keys of one phase across its product's revisions (its lineage): an assignment made on the
 * draft's phase is offered at the same phase of every revision, so work running on a released
 * revision prints with it (docs/revisions.md).
 */
async function samePhaseKeys(db: Db, phaseKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('product_phases as p')
    .innerJoin('product_phases as same', 'same.lineage', 'p.lineage')
    .select(sql<string>`same.id::text`.as('id'))
    .where(sql<string>`p.id::text`, '=', phaseKey.toLowerCase())
    .execute()
  return rows.length ? rows.map((r) => r.id) : [phaseKey.toLowerCase()]
}

async function contextTemplateIds(db: Db, context: string, contextKey: string): Promise<string[]> {
  const ctx = context.toLowerCase()
  const key = contextKey
  const ids = new Set<string>()
  const assigned = await db
    .selectFrom('print_template_assignments')
    .select('template_id')
    .where('context', '=', ctx)
    .where(sql<string>`lower(context_key)`, 'in', ctx === 'phase' ? await samePhaseKeys(db, key) : [key.toLowerCase()])
    .execute()
  for (const a of assigned) ids.add(a.template_id)
  const own = await db
    .selectFrom('print_templates')
    .select('id')
    .where(sql<string>`lower(context)`, '=', ctx)
    .where(sql<string>`lower(context_key)`, '=', key.toLowerCase())
    .execute()
  for (const o of own) ids.add(o.id)
  // The lists other domains keep on their own rows (SPEC 3 print_templates), read only.
  const listed: unknown[] = []
  if (isUuid(key)) {
    if (ctx === 'product') listed.push(...((await db.selectFrom('products').select('print_templates').where('id', '=', key).executeTakeFirst())?.print_templates ?? []))
    if (ctx === 'issue_type') listed.push(...((await db.selectFrom('issue_types').select('print_templates').where('id', '=', key).executeTakeFirst())?.print_templates ?? []))
    if (ctx === 'phase') {
      const phase = await db.selectFrom('product_phases').select(['print_templates', 'operation_id']).where('id', '=', key).executeTakeFirst()
      if (phase) {
        listed.push(...phase.print_templates)
        for (const id of await contextTemplateIds(db, 'operation', phase.operation_id)) ids.add(id)
      }
    }
    if (ctx === 'operation') {
      const op = await db.selectFrom('operations').select('default_phase_steps').where('id', '=', key).executeTakeFirst()
      for (const step of op?.default_phase_steps ?? []) listed.push(...(step.print_templates ?? []))
    }
  }
  for (const k of listed) if (typeof k === 'string' && isUuid(k)) ids.add(k.toLowerCase())
  // The settings' product and position labels apply to every product and position.
  if (ctx === 'product' || ctx === 'position') {
    const label = await settingsLabelTemplate(db, ctx === 'product' ? 'product_label' : 'position_label')
    if (label) ids.add(label)
  }
  return [...ids]
}

/** `GET print-template`: the library by name (the trash with trash=true), or one place's templates. */
export async function listTemplates(svc: Services | { db: Db }, query: TemplateListInput): Promise<PrintTemplateRow[]> {
  if (query.context || query.context_key) {
    if (!query.context || !query.context_key) throw invalidField({ path: query.context ? 'context_key' : 'context', kind: 'required', message: 'context and context_key go together' })
    const ids = await contextTemplateIds(svc.db, query.context, query.context_key)
    if (ids.length === 0) return []
    return selectTemplateRows(svc.db).where('t.id', 'in', ids).where('t.trashed_at', 'is', null).orderBy(sql`lower(t.name)`).orderBy('t.id').execute()
  }
  return selectTemplateRows(svc.db)
    .where('t.trashed_at', query.trash ? 'is not' : 'is', null)
    .orderBy(sql`lower(t.name)`)
    .orderBy('t.id')
    .execute()
}

/** The place an assignment names must exist (positions and settings labels are named by code). */
async function assertTarget(db: Db, context: string, key: string): Promise<string> {
  const missing = () => notFound('UNKNOWN_ASSIGNMENT_TARGET', `no ${context} ${key}`)
  const byId = async (table: 'products' | 'product_phases' | 'operations' | 'issue_types') => {
    if (!isUuid(key)) throw missing()
    const row = await db.selectFrom(table).select('id').where('id', '=', key.toLowerCase()).executeTakeFirst()
    if (!row) throw missing()
    return row.id
  }
  if (context === 'product') return byId('products')
  if (context === 'phase') return byId('product_phases')
  if (context === 'operation') return byId('operations')
  if (context === 'issue_type') return byId('issue_types')
  if (context === 'settings') {
    if (!(SETTINGS_LABELS as readonly string[]).includes(key)) throw invalidField({ path: 'context_key', kind: 'choice', message: `one of ${SETTINGS_LABELS.join(', ')}` })
    return key
  }
  // position: a position code (warehouse positions are named by code; 'IN', 'A-01-02' ...).
  return key.trim().toUpperCase()
}

/**
 * `POST update-template-assignments`: each item adds (type add) or removes (type remove) one
 * template at one place, all in one transaction (one refused item writes nothing). Adding what is
 * there or removing what is not changes nothing. Answers the assignments of the places touched.
 */
export async function updateAssignments(svc: Services, actor: Actor, input: AssignmentsInput) {
  const now = svc.clock.now()
  const touched = new Map<string, { context: string; context_key: string }>()
  await svc.db.transaction().execute(async (trx) => {
    for (const [i, item] of input.items.entries()) {
      const contextKey = await assertTarget(trx, item.context, item.context_key)
      const template = isUuid(item.template_key) ? await trx.selectFrom('print_templates').select(['id', 'name', 'trashed_at']).where('id', '=', item.template_key).executeTakeFirst() : undefined
      if (!template) throw notFound('UNKNOWN_PRINT_TEMPLATE', `print template not found (item ${i + 1})`)
      touched.set(`${item.context}\u0000${contextKey}`, { context: item.context, context_key: contextKey })
      let changed: boolean
      if (item.type === 'add') {
        if (template.trashed_at) throw conflict('PRINT_TEMPLATE_IN_TRASH', `the print template ${template.name} is in the trash`)
        changed =
          (
            await trx
              .insertInto('print_template_assignments')
              .values({ template_id: template.id, context: item.context, context_key: contextKey, created_at: now })
              .onConflict((oc) => oc.doNothing())
              .returning('template_id')
              .execute()
          ).length > 0
      } else {
        changed =
          (
            await trx
              .deleteFrom('print_template_assignments')
              .where('template_id', '=', template.id)
              .where('context', '=', item.context)
              .where('context_key', '=', contextKey)
              .returning('template_id')
              .execute()
          ).length > 0
      }
      if (changed) {
        await appendEvent(
          trx,
          actor,
          {
            event_type: item.type === 'add' ? 'PRINT_TEMPLATE_ASSIGNED' : 'PRINT_TEMPLATE_UNASSIGNED',
            subject_type: 'print_template',
            subject_key: template.id,
            data: { context: item.context, context_key: contextKey },
          },
          now,
        )
      }
    }
  })
  const places = [...touched.values()]
  const rows = await svc.db
    .selectFrom('print_template_assignments')
    .select(['context', 'context_key', 'template_id as template_key'])
    .where((eb) => eb.or(places.map((p) => eb.and([eb('context', '=', p.context), eb('context_key', '=', p.context_key)]))))
    .orderBy('context')
    .orderBy('context_key')
    .orderBy('created_at')
    .execute()
  return rows
}

/** The template assigned to a settings label ('product_label', 'position_label'), the latest one. */
export async function settingsLabelTemplate(db: Db, label: (typeof SETTINGS_LABELS)[number]): Promise<string | null> {
  const row = await db
    .selectFrom('print_template_assignments as a')
    .innerJoin('print_templates as t', 't.id', 'a.template_id')
    .select('a.template_id')
    .where('a.context', '=', 'settings')
    .where('a.context_key', '=', label)
    .where('t.trashed_at', 'is', null)
    .orderBy('a.created_at', 'desc')
    .executeTakeFirst()
  return row?.template_id ?? null
}

/** The base PDF's bytes for filling. */
export async function basePdfBytes(svc: Services, id: string): Promise<Uint8Array> {
  const file = await svc.files.get(basePdfKey(id))
  if (!file) throw notFound('UNKNOWN_PRINT_TEMPLATE', 'the base PDF of this template is missing from the file store')
  return new Uint8Array(await file.arrayBuffer())
}

/** Where one template is assigned, each place with a readable label (product code, phase name ...). */
export async function listAssignments(svc: Services | { db: Db }, templateKey: string) {
  const template = await getTemplate(svc, templateKey)
  const rows = await svc.db
    .selectFrom('print_template_assignments as a')
    .leftJoin('products as p', (j) => j.on('a.context', '=', 'product').on(sql`p.id::text`, '=', sql.ref('a.context_key')))
    .leftJoin('product_phases as ph', (j) => j.on('a.context', '=', 'phase').on(sql`ph.id::text`, '=', sql.ref('a.context_key')))
    .leftJoin('products as pp', 'pp.id', 'ph.product_id')
    .leftJoin('operations as o', (j) => j.on('a.context', '=', 'operation').on(sql`o.id::text`, '=', sql.ref('a.context_key')))
    .leftJoin('issue_types as it', (j) => j.on('a.context', '=', 'issue_type').on(sql`it.id::text`, '=', sql.ref('a.context_key')))
    .select([
      'a.context',
      'a.context_key',
      sql<string>`coalesce(p.code, pp.code || ' / ' || ph.name, o.name, it.code || ' ' || it.name, a.context_key)`.as('label'),
    ])
    .where('a.template_id', '=', template._key)
    .orderBy('a.context')
    .orderBy('a.created_at')
    .execute()
  return rows
}

/** A product's phases by position, to choose where a template goes (the assignment dialog). */
export async function productPhases(svc: Services | { db: Db }, productKey: string): Promise<{ _key: string; name: string }[]> {
  if (!isUuid(productKey)) throw notFound('UNKNOWN_PRODUCT', 'product not found')
  return svc.db.selectFrom('product_phases').select(['id as _key', 'name']).where('product_id', '=', productKey).where('revision_id', 'is', null).orderBy('position').execute()
}
