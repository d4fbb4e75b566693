import ExcelJS from 'exceljs'
import { csvFile } from '../../../src/csv'
import type { AuditEntry, AuditFilter } from '../../../src/domains/audit/schemas'
import type { Db } from '../../db/schema'
import { badRequest } from '../../errors'
import { plantTimeZone } from '../reports/service'
import { auditTrailAll } from './trail'

/** An export holds at most this many events; narrower filters for more. */
export const AUDIT_EXPORT_MAX = 100_000

const HEADERS = {
  it: ['N.', 'Data e ora', 'Utente', 'Nome', 'Evento', 'Entità', 'Codice', 'Chiave', 'Motivo', 'Modifiche', 'Dati'],
  en: ['No.', 'Date and time', 'User', 'Name', 'Event', 'Entity', 'Code', 'Key', 'Reason', 'Changes', 'Data'],
} as const
export type ExportLanguage = keyof typeof HEADERS

const dateTime = (d: Date) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: plantTimeZone(), dateStyle: 'short', timeStyle: 'medium' }).format(d).replaceAll('-', '/')

const cellsOf = (e: AuditEntry): (string | number)[] => [
  e.id,
  dateTime(e.at),
  e.user?.username ?? '',
  e.user?.full_name ?? '',
  e.event_type,
  e.subject_type ?? '',
  e.code ?? '',
  e.subject_key ?? '',
  e.reason ?? '',
  e.changes ? JSON.stringify(e.changes) : '',
  JSON.stringify(e.data),
]

async function collect(db: Db, filter: AuditFilter): Promise<AuditEntry[]> {
  const all: AuditEntry[] = []
  for await (const page of auditTrailAll(db, filter)) {
    all.push(...page)
    if (all.length > AUDIT_EXPORT_MAX) {
      throw badRequest('EXPORT_TOO_LARGE', `more than ${AUDIT_EXPORT_MAX} events match: narrow the filters (dates, entity, user)`, { max: AUDIT_EXPORT_MAX })
    }
  }
  return all
}

/** ';'-separated with a BOM, so spreadsheet programs in Italian and English open it in columns. */
export async function auditCsv(db: Db, filter: AuditFilter, lang: ExportLanguage): Promise<string> {
  const rows = (await collect(db, filter)).map(cellsOf)
  return csvFile([[...HEADERS[lang]], ...rows])
}

/** One sheet, the event number as a number, a header row kept in view. */
export async function auditXlsx(db: Db, filter: AuditFilter, lang: ExportLanguage): Promise<Uint8Array> {
  const entries = await collect(db, filter)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(lang === 'it' ? 'Registro' : 'Audit trail', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.addRow([...HEADERS[lang]]).font = { bold: true }
  for (const e of entries) sheet.addRow(cellsOf(e))
  sheet.columns.forEach((c, i) => {
    c.width = [8, 20, 16, 22, 26, 14, 18, 38, 30, 40, 60][i]
  })
  return new Uint8Array(await book.xlsx.writeBuffer())
}
