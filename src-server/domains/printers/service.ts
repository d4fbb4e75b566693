import { PDFDocument, StandardFonts } from '@pdfme/pdf-lib'
import { sql } from 'kysely'
import { DEFAULT_IPP_PATH, DEFAULT_PORTS, type PrinterAddress, parsePrinterUri, printerUri } from '../../../src/domains/printing/printer-uri'
import type { PrinterInput, PrinterPatchInput, PrinterProtocol, PrinterRow } from '../../../src/domains/printing/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { ippPrintJob, PrinterUnreachable, type SendResult } from './ipp'
import { rawSend } from './raw'

/**
 * The printers library (SPEC 3 Printer: host, port): IPP printers (Print-Job over HTTP, default
 * port 631, path /ipp/print) and raw TCP ones (default port 9100: label printers that take the
 * document as it is). Each user may choose a default printer. Events: PRINTER_CREATED,
 * PRINTER_UPDATED, PRINTER_TRASHED, PRINTER_RESTORED, DEFAULT_PRINTER_CHANGED.
 */

/** How long the server waits for a printer before calling it unreachable. */
export const printerTimeouts = { ms: 5000, busyMs: 15000 }

const printerNotFound = () => notFound('UNKNOWN_PRINTER', 'printer not found')
const nameTaken = () => conflict('PRINTER_NAME_TAKEN', 'printer name already in use')

function selectPrinters(db: Db) {
  return db
    .selectFrom('printers as p')
    .select(['p.id as _key', 'p.name', 'p.host', 'p.port', 'p.protocol', 'p.path', sql<boolean>`p.trashed_at is not null`.as('trash')])
}

export async function listPrinters(svc: Services | { db: Db }, opts: { trash?: boolean } = {}): Promise<PrinterRow[]> {
  return selectPrinters(svc.db)
    .where('p.trashed_at', opts.trash ? 'is not' : 'is', null)
    .orderBy(sql`lower(p.name)`)
    .execute()
}

export async function getPrinter(svc: Services | { db: Db }, key: string): Promise<PrinterRow> {
  const row = isUuid(key) ? await selectPrinters(svc.db).where('p.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw printerNotFound()
  return row
}

/** A printer that can take a print: it exists and is not in the trash (else 404 UNKNOWN_PRINTER). */
export async function usablePrinter(db: Db, key: string): Promise<PrinterRow> {
  const row = await getPrinter({ db }, key)
  if (row.trash) throw notFound('UNKNOWN_PRINTER', `the printer ${row.name} is in the trash`)
  return row
}

/** Where a printer is: from its URI when given (400 PRINTER_URI_INVALID saying what is wrong), else from host, port, protocol and path. */
function addressOf(input: { uri?: string; host?: string; port?: number; protocol?: PrinterProtocol; path?: string }, old?: PrinterAddress): PrinterAddress | undefined {
  if (input.uri !== undefined) {
    const parsed = parsePrinterUri(input.uri)
    if (!parsed.ok) throw badRequest('PRINTER_URI_INVALID', URI_PROBLEMS[parsed.reason])
    return parsed.address
  }
  const protocol = input.protocol ?? old?.protocol
  const host = input.host ?? old?.host
  if (!protocol || !host) return undefined
  // A new protocol without a port takes that protocol's default port.
  const port = input.port ?? (old && protocol === old.protocol ? old.port : DEFAULT_PORTS[protocol])
  return { protocol, host, port, path: input.path || old?.path || DEFAULT_IPP_PATH }
}

const URI_PROBLEMS = {
  syntax: 'uri must read like ipp://host:631/ipp/print, ipps://host/printers/name or socket://host:9100',
  scheme: 'uri must start with ipp://, ipps:// or socket://',
  host: 'uri needs a host name or IP address',
  port: 'uri port must be 1 to 65535',
  path: 'uri path may hold letters, digits and / . _ ~ - only (socket:// takes none)',
} as const

export async function createPrinter(svc: Services, actor: Actor, input: PrinterInput): Promise<PrinterRow> {
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      const address = addressOf(input)
      if (!address) throw badRequest('INVALID_INPUT', 'a printer needs a uri (ipp://host/path) or a host')
      const { id } = await trx
        .insertInto('printers')
        .values({ name: input.name, ...address, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'PRINTER_CREATED', subject_type: 'printer', subject_key: id, data: { name: input.name, host: address.host, uri: printerUri(address) } }, now)
      return id
    })
    return getPrinter(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

export async function patchPrinter(svc: Services, actor: Actor, key: string, patch: PrinterPatchInput): Promise<PrinterRow> {
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = isUuid(key) ? await trx.selectFrom('printers').selectAll().where('id', '=', key).forUpdate().executeTakeFirst() : undefined
      if (!old) throw printerNotFound()
      const next = { name: patch.name ?? old.name, ...addressOf(patch, old)! }
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== old[k])
      const trashChange = patch.trash !== undefined && patch.trash !== (old.trashed_at !== null)
      if (!changed.length && !trashChange) return
      await trx
        .updateTable('printers')
        .set({ ...next, ...(trashChange ? { trashed_at: patch.trash ? now : null } : {}), updated_at: now })
        .where('id', '=', key)
        .execute()
      if (changed.length) await appendEvent(trx, actor, { event_type: 'PRINTER_UPDATED', subject_type: 'printer', subject_key: key, data: editData(changesOf(old, next, changed)) }, now)
      if (trashChange) {
        // A printer in the trash is nobody's default any more.
        if (patch.trash) await trx.deleteFrom('printer_defaults').where('printer_id', '=', key).execute()
        await appendEvent(trx, actor, { event_type: patch.trash ? 'PRINTER_TRASHED' : 'PRINTER_RESTORED', subject_type: 'printer', subject_key: key, data: { name: next.name } }, now)
      }
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
  return getPrinter(svc, key)
}

/** The acting user's default printer (null when none). */
export async function myDefaultPrinter(svc: Services | { db: Db }, actor: Actor): Promise<PrinterRow | null> {
  const row = await svc.db.selectFrom('printer_defaults').select('printer_id').where('user_id', '=', actor.userId).executeTakeFirst()
  return row ? getPrinter(svc, row.printer_id) : null
}

/** `PUT printer/default`: the own default printer (null clears it); unknown or trashed: 404 UNKNOWN_PRINTER. */
export async function setDefaultPrinter(svc: Services, actor: Actor, printerKey: string | null): Promise<PrinterRow | null> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('printer_defaults').select('printer_id').where('user_id', '=', actor.userId).forUpdate().executeTakeFirst()
    const changes = (to: string | null) => changesOf({ printer_key: old?.printer_id ?? null }, { printer_key: to })
    if (printerKey === null) {
      const gone = await trx.deleteFrom('printer_defaults').where('user_id', '=', actor.userId).returning('printer_id').execute()
      if (gone.length) await appendEvent(trx, actor, { event_type: 'DEFAULT_PRINTER_CHANGED', subject_type: 'user', subject_key: actor.userId, data: editData(changes(null), { printer_key: null }) }, now)
      return
    }
    const printer = await usablePrinter(trx, printerKey)
    await trx
      .insertInto('printer_defaults')
      .values({ user_id: actor.userId, printer_id: printer._key })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ printer_id: printer._key }))
      .execute()
    await appendEvent(trx, actor, { event_type: 'DEFAULT_PRINTER_CHANGED', subject_type: 'user', subject_key: actor.userId, data: editData(changes(printer._key), { printer_key: printer._key, name: printer.name }) }, now)
  })
  return myDefaultPrinter(svc, actor)
}

/**
 * Sends a document to a printer. Never throws for the printer's sake: an unreachable printer
 * (refused, silent past the timeout) answers `{accepted: false, unreachable: true}`.
 */
export async function sendToPrinter(printer: PrinterRow, document: Uint8Array, job: { name: string; user: string }): Promise<SendResult & { unreachable: boolean }> {
  try {
    const result =
      printer.protocol !== 'raw'
        ? await ippPrintJob({ host: printer.host, port: printer.port, path: printer.path, tls: printer.protocol === 'ipps', document, jobName: job.name, user: job.user, timeoutMs: printerTimeouts.ms, busyWaitMs: printerTimeouts.busyMs })
        : await rawSend({ host: printer.host, port: printer.port, document, timeoutMs: printerTimeouts.ms })
    return { ...result, unreachable: false }
  } catch (e) {
    if (e instanceof PrinterUnreachable) return { accepted: false, unreachable: true, message: e.message }
    return { accepted: false, unreachable: true, message: e instanceof Error ? e.message : String(e) }
  }
}

/** A one-page test document naming the printer, when (the app's date format) and who sent it (A6). */
export async function testDocument(printer: PrinterRow, when: Date, by: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const page = doc.addPage([298, 420])
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  // The standard fonts hold Latin-1 only: anything else prints as '?'.
  const latin1 = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?')
  page.drawText('MES - Stampa di prova / Test print', { x: 20, y: 380, size: 13, font: bold })
  page.drawText(latin1(printer.name), { x: 20, y: 350, size: 12, font })
  page.drawText(printerUri(printer), { x: 20, y: 330, size: 10, font })
  page.drawText(`${formatDateTime(when)} - ${latin1(by)}`, { x: 20, y: 310, size: 10, font })
  return doc.save()
}
