import { sql } from 'kysely'
import { PRESETS, PRINT_COPIES_MAX, type PrintInput, type PrintRow, type PrintSubject } from '../../../src/domains/printing/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, notFound, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { type DocumentValues, fillTemplate } from '../print-templates/fill'
import { basePdfBytes, usableTemplate } from '../print-templates/service'
import { positionRowByCode } from '../positions/service'
import { getPrinter, sendToPrinter, testDocument, usablePrinter } from '../printers/service'

/**
 * Prints: a template filled with the objects a print is about (product, work order, job, batch,
 * serial, issue, position) made into one PDF (one document per serial of the batch when asked),
 * kept in the file store (`/media/prints/{key}/...pdf`) and, with a printer, sent to it. Every print
 * is logged with what, where, who and whether the printer accepted it (event PRINT_MADE).
 * An unreachable or refusing printer is logged too, then answered 422 PRINTER_UNREACHABLE /
 * PRINTER_REFUSED (never a hang: see printerTimeouts).
 */

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
const localDay = (d: Date) => `${pad(d.getFullYear(), 4)}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`
const specDay = (iso: string | null | undefined) => (iso ? iso.replaceAll('-', '/') : '')

function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(text).filter(Boolean).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n).replace('.', ','))

type Resolved = { base: DocumentValues; serials: { code: string; data: Record<string, unknown> }[] }

/** What a print is filled with; unknown objects are 404 with their own code. */
export async function resolveSubject(db: Db, actor: Actor, subject: PrintSubject & { app_url?: string }, now: Date): Promise<Resolved> {
  const presets: DocumentValues['presets'] = { today: localDay(now) }
  const custom: Record<string, string> = {}
  const uuidOr = (key: string | undefined, code: Parameters<typeof notFound>[0], what: string) => {
    if (key !== undefined && !isUuid(key)) throw notFound(code, `${what} not found`)
    return key?.toLowerCase()
  }
  let serialId = uuidOr(subject.serial_key, 'UNKNOWN_SERIAL', 'serial')
  let batchId = uuidOr(subject.batch_key, 'NOT_FOUND', 'batch')
  let jobId = uuidOr(subject.job_key, 'UNKNOWN_JOB', 'job')
  let workOrderId = uuidOr(subject.work_order_key, 'UNKNOWN_WORK_ORDER', 'work order')
  let productId = uuidOr(subject.product_key, 'UNKNOWN_PRODUCT', 'product')
  const issueId = uuidOr(subject.issue_key, 'NOT_FOUND', 'issue')
  let phaseId: string | undefined
  let operatorId: string | null | undefined
  let serialData: Record<string, unknown> = {}

  if (issueId) {
    const issue = await db.selectFrom('issues').select(['code', 'title', 'job_id', 'work_order_id', 'product_id', 'batch_id']).where('id', '=', issueId).executeTakeFirst()
    if (!issue) throw notFound('NOT_FOUND', 'issue not found')
    presets.issue_code = issue.code
    presets.issue_title = issue.title
    jobId ??= issue.job_id ?? undefined
    workOrderId ??= issue.work_order_id ?? undefined
    productId ??= issue.product_id ?? undefined
    batchId ??= issue.batch_id ?? undefined
  }
  if (serialId) {
    const serial = await db.selectFrom('serials').selectAll().where('id', '=', serialId).executeTakeFirst()
    if (!serial) throw notFound('UNKNOWN_SERIAL', 'serial not found')
    presets.serial_code = serial.code
    serialData = serial.data ?? {}
    productId ??= serial.product_id
    workOrderId ??= serial.work_order_id ?? undefined
    jobId ??= serial.job_id ?? undefined
    batchId ??= serial.batch_id ?? undefined
    phaseId = serial.phase_id ?? undefined
    operatorId = serial.operator_id
  }
  let batchQt: number | undefined
  if (batchId) {
    const batch = await db.selectFrom('batches').select(['job_id', 'qt_total', 'opened_by']).where('id', '=', batchId).executeTakeFirst()
    if (!batch) throw notFound('NOT_FOUND', 'batch not found')
    jobId ??= batch.job_id
    batchQt = batch.qt_total
    operatorId ??= batch.opened_by
  }
  if (jobId) {
    const job = await db.selectFrom('jobs').select(['work_order_id', 'phase_id', 'position', 'quantity', 'operator_id']).where('id', '=', jobId).executeTakeFirst()
    if (!job) throw notFound('UNKNOWN_JOB', 'job not found')
    workOrderId ??= job.work_order_id
    phaseId ??= job.phase_id
    operatorId ??= job.operator_id
    presets.quantity = numberText(batchQt ?? job.quantity)
    if (subject.app_url || process.env.MES_PUBLIC_URL) presets.job_url = `${subject.app_url ?? process.env.MES_PUBLIC_URL}/app/operator/job/${jobId}`
    presets.job = String(job.position)
  }
  if (workOrderId) {
    const wo = await db.selectFrom('work_orders').select(['code', 'product_id', 'planned_qt', 'due_by']).where('id', '=', workOrderId).executeTakeFirst()
    if (!wo) throw notFound('UNKNOWN_WORK_ORDER', 'work order not found')
    presets.work_order_code = wo.code
    presets.due_date = specDay(wo.due_by)
    presets.quantity ??= numberText(wo.planned_qt)
    if (presets.job) presets.job = `${wo.code}/${presets.job}`
    productId ??= wo.product_id
  }
  if (phaseId) {
    const phase = await db.selectFrom('product_phases').select('name').where('id', '=', phaseId).executeTakeFirst()
    if (phase) presets.phase = phase.name
  }
  if (productId) {
    const product = await db.selectFrom('products').select(['code', 'description', 'metadata']).where('id', '=', productId).executeTakeFirst()
    if (!product) throw notFound('UNKNOWN_PRODUCT', 'product not found')
    presets.product_code = product.code
    presets.product_description = product.description
    for (const m of product.metadata ?? []) custom[m.custom_field_key.toLowerCase()] = text(m.value)
  }
  const operator = await db
    .selectFrom('users')
    .select(['username', 'name', 'surname'])
    .where('id', '=', operatorId ?? actor.userId)
    .executeTakeFirst()
  if (operator) presets.operator = `${operator.name} ${operator.surname}`.trim() || operator.username
  if (subject.position_code !== undefined) {
    presets.position_code = subject.position_code.trim().toUpperCase()
    // A shelf label carries where the shelf is too; a code not (yet) in the warehouse prints as typed.
    const position = await positionRowByCode(db, subject.position_code)
    if (position) {
      presets.position_code = position.code
      presets.position_description = position.description
      presets.position_path = position.path_codes.join(' / ')
    }
  }
  for (const [k, val] of Object.entries(serialData)) custom[k.toLowerCase()] = text(val)
  for (const [k, val] of Object.entries(subject.values ?? {})) {
    if ((PRESETS as readonly string[]).includes(k)) (presets as Record<string, string>)[k] = val
    custom[k.toLowerCase()] = val
  }

  let serials: Resolved['serials'] = []
  if (subject.per_serial) {
    if (!batchId) throw invalidField({ path: 'batch_key', kind: 'required', message: 'one label per serial needs the batch' })
    serials = (
      await db.selectFrom('serials').select(['code', 'data']).where('batch_id', '=', batchId).orderBy('created_at').orderBy('code').limit(PRINT_COPIES_MAX + 1).execute()
    ).map((s) => ({ code: s.code, data: s.data ?? {} }))
    if (serials.length > PRINT_COPIES_MAX) throw invalidField({ path: 'per_serial', kind: 'max_length', limit: PRINT_COPIES_MAX, message: `at most ${PRINT_COPIES_MAX} labels in one print` })
  }
  return { base: { presets, custom }, serials }
}

/** The documents one print holds: one per serial (when asked and the batch has serials), each `copies` times. */
export function documentsOf(resolved: Resolved, copies: number): DocumentValues[] {
  const one = resolved.serials.length
    ? resolved.serials.map((s) => {
        const custom = { ...resolved.base.custom }
        for (const [k, val] of Object.entries(s.data)) custom[k.toLowerCase()] = text(val)
        return { presets: { ...resolved.base.presets, serial_code: s.code }, custom }
      })
    : [resolved.base]
  const out: DocumentValues[] = []
  for (const d of one) for (let i = 0; i < copies; i++) out.push(d)
  if (out.length > PRINT_COPIES_MAX) throw invalidField({ path: 'copies', kind: 'max_value', limit: PRINT_COPIES_MAX, message: `at most ${PRINT_COPIES_MAX} documents in one print` })
  return out
}

function selectPrints(db: Db) {
  return db
    .selectFrom('prints as p')
    .leftJoin('print_templates as t', 't.id', 'p.template_id')
    .leftJoin('printers as r', 'r.id', 'p.printer_id')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id as _key',
      'p.template_id as template_key',
      sql<string | null>`coalesce(t.name, p.subject->>'title')`.as('template_name'),
      'p.printer_id as printer_key',
      'r.name as printer_name',
      'p.user_id as user_key',
      'u.username',
      sql<string | null>`nullif(trim(u.name || ' ' || u.surname), '')`.as('user_name'),
      'p.documents',
      'p.subject',
      'p.status',
      'p.message',
      sql<string>`'/media/' || p.storage_key`.as('pdf_url'),
      sql<number>`(extract(epoch from p.created_at) * 1000)::float8`.as('created_at'),
    ])
}

export async function getPrint(svc: Services | { db: Db }, key: string): Promise<PrintRow> {
  const row = isUuid(key) ? await selectPrints(svc.db).where('p.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw notFound('NOT_FOUND', 'print not found')
  return row
}

/** The print log, newest first. */
export async function listPrints(svc: Services, opts: { template_key?: string; printer_key?: string; limit?: number }): Promise<PrintRow[]> {
  let q = selectPrints(svc.db)
  if (opts.template_key) q = q.where('p.template_id', '=', isUuid(opts.template_key) ? opts.template_key : null)
  if (opts.printer_key) q = q.where('p.printer_id', '=', isUuid(opts.printer_key) ? opts.printer_key : null)
  return q
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(opts.limit ?? 100)
    .execute()
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'print'

/**
 * A document the server laid out itself (a movement list), printed like a template's: stored,
 * sent when a printer is given, logged under its title.
 */
export async function printDocument(svc: Services, actor: Actor, doc: { title: string; pdf: Uint8Array; subject: Record<string, unknown>; printerKey?: string | null }): Promise<PrintRow> {
  return deliver(svc, actor, { template: null, name: doc.title, pdf: doc.pdf, documents: 1, subject: { ...doc.subject, title: doc.title }, printerKey: doc.printerKey })
}

/** Stores, sends (with a printer), logs; then throws 422 when the printer did not take it. */
async function deliver(
  svc: Services,
  actor: Actor,
  what: { template: { _key: string; name: string } | null; name?: string; pdf: Uint8Array; documents: number; subject: Record<string, unknown>; printerKey?: string | null },
): Promise<PrintRow> {
  const printer = what.printerKey ? await usablePrinter(svc.db, what.printerKey) : null
  const id = crypto.randomUUID()
  const name = what.template?.name ?? what.name ?? 'test'
  const storageKey = `prints/${id}/${safeName(name)}.pdf`
  await svc.files.put(storageKey, what.pdf)
  let status: PrintRow['status'] = 'made'
  let message = ''
  if (printer) {
    const user = await svc.db.selectFrom('users').select('username').where('id', '=', actor.userId).executeTakeFirst()
    const sent = await sendToPrinter(printer, what.pdf, { name, user: user?.username ?? 'mes' })
    status = sent.accepted ? 'accepted' : sent.unreachable ? 'unreachable' : 'refused'
    message = sent.message
  }
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('prints')
      .values({
        id,
        template_id: what.template?._key ?? null,
        printer_id: printer?._key ?? null,
        user_id: actor.userId,
        documents: what.documents,
        subject: JSON.stringify(what.subject),
        status,
        message,
        storage_key: storageKey,
        created_at: now,
      })
      .execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'PRINT_MADE', subject_type: 'print', subject_key: id, data: { template_key: what.template?._key ?? null, printer_key: printer?._key ?? null, documents: what.documents, status } },
      now,
    )
  })
  const row = await getPrint(svc, id)
  if (printer && status === 'unreachable') {
    throw unprocessable('PRINTER_UNREACHABLE', `the printer ${printer.name} (${printer.host}:${printer.port}) cannot be reached: ${message}`, { print_key: id, pdf_url: row.pdf_url })
  }
  if (printer && status === 'refused') {
    throw unprocessable('PRINTER_REFUSED', `the printer ${printer.name} refused the document: ${message}`, { print_key: id, pdf_url: row.pdf_url })
  }
  return row
}

/** Fills a template (not in the trash) for the given objects; the PDF and how many documents. */
export async function renderPrint(svc: Services, actor: Actor, input: Omit<PrintInput, 'printer_key'>) {
  const template = await usableTemplate(svc.db, input.template_key)
  const resolved = await resolveSubject(svc.db, actor, input, svc.clock.now())
  const documents = documentsOf(resolved, input.copies ?? 1)
  const pdf = await fillTemplate({ base: await basePdfBytes(svc, template._key), fields: template.fields }, documents)
  return { template, pdf, documents: documents.length }
}

/** `POST print`: makes the PDF (download at pdf_url) and, with printer_key, sends it. */
export async function print(svc: Services, actor: Actor, input: PrintInput): Promise<PrintRow> {
  if (input.printer_key) await usablePrinter(svc.db, input.printer_key)
  const { template, pdf, documents } = await renderPrint(svc, actor, input)
  const { template_key: _t, printer_key: _p, copies: _c, app_url: _u, ...subject } = input
  return deliver(svc, actor, { template, pdf, documents, subject, printerKey: input.printer_key })
}

/** `POST printer/{key}/test`: a one-page test document sent to the printer, logged like a print. */
export async function testPrint(svc: Services, actor: Actor, printerKey: string): Promise<PrintRow> {
  const printer = await getPrinter(svc, printerKey)
  if (printer.trash) throw new AppError(404, 'UNKNOWN_PRINTER', `the printer ${printer.name} is in the trash`)
  const user = await svc.db.selectFrom('users').select(['username', 'name', 'surname']).where('id', '=', actor.userId).executeTakeFirst()
  const pdf = await testDocument(printer, svc.clock.now(), user ? `${user.name} ${user.surname}`.trim() || user.username : '')
  return deliver(svc, actor, { template: null, pdf, documents: 1, subject: { test: true }, printerKey })
}

/** A template's preview: filled with the given values (or sample values), not logged, not kept. */
export async function previewTemplate(svc: Services, key: string, values: Record<string, string> = {}): Promise<Uint8Array> {
  const template = await usableTemplate(svc.db, key).catch(async (e) => {
    // The trash may be previewed too (to decide whether to restore it).
    if (e instanceof AppError && e.appCode === 'PRINT_TEMPLATE_IN_TRASH') return (await import('../print-templates/service')).getTemplate(svc, key)
    throw e
  })
  const sample: DocumentValues = {
    presets: {
      product_code: 'PRD-0001',
      product_description: 'Prodotto di esempio',
      work_order_code: 'OP-2026-0001',
      quantity: '25',
      due_date: '2026/12/31',
      job: 'OP-2026-0001/1',
      phase: 'Montaggio',
      operator: 'Mario Rossi',
      serial_code: 'SN-000123',
      position_code: 'A-01-02',
      position_description: 'Scaffale A, ripiano 2',
      position_path: 'MAG / A / A-01-02',
      issue_code: 'NC-0001',
      issue_title: 'Graffio sul pannello',
      today: localDay(svc.clock.now()),
      job_url: 'https://mes.example.com/app/operator/job/00000000-0000-4000-8000-000000000000',
    },
    custom: {},
  }
  for (const f of template.fields) {
    if (f.link_type === 'custom_field') sample.custom[f.link] = f.kind === 'ean13' ? '400638133393' : `<${f.name}>`
    if (f.kind === 'ean13' && f.link_type === 'preset') sample.presets[f.link as keyof typeof sample.presets] = '400638133393'
  }
  for (const [k, val] of Object.entries(values)) {
    ;(sample.presets as Record<string, string>)[k] = val
    sample.custom[k.toLowerCase()] = val
  }
  return fillTemplate({ base: await basePdfBytes(svc, template._key), fields: template.fields }, [sample])
}
