import * as v from 'valibot'
import { INPUT_ISSUE_KINDS } from '../../input-issues'

/**
 * Inbound data flows: work orders imported from an ERP (REST, JSON or CSV, with an
 * Idempotency-Key header) or from a CSV the planner uploads (preview first). One row = one work
 * order, created through the work-orders service exactly as the "new work order" form does.
 * CSV columns (header row, comma or semicolon separated, any order):
 * product_code, quantity, start_from, due_by, line, notes, operator_username.
 */
export const IMPORT_COLUMNS = ['product_code', 'quantity', 'start_from', 'due_by', 'line', 'notes', 'operator_username'] as const
export const IMPORT_MAX_ROWS = 1000
export const IMPORT_CSV_MAX_BYTES = 2 * 1024 * 1024

/** One row as JSON (the CSV's cells become these fields; empty cells are left out). */
export const ImportRowInput = v.strictObject({
  product_code: v.pipe(v.string('product_code is required'), v.trim(), v.minLength(1, 'product_code is required'), v.maxLength(100)),
  quantity: v.union([v.number(), v.string()], 'quantity is required'),
  start_from: v.optional(v.nullable(v.string())),
  due_by: v.optional(v.nullable(v.string())),
  line: v.optional(v.string()),
  notes: v.optional(v.string()),
  operator_username: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
})
export type ImportRowInput = v.InferOutput<typeof ImportRowInput>

export const WorkOrderImportJson = v.object({
  rows: v.pipe(v.array(v.unknown()), v.minLength(1, 'rows: at least one row'), v.maxLength(IMPORT_MAX_ROWS, `rows: at most ${IMPORT_MAX_ROWS} per import`)),
})
export type WorkOrderImportJson = v.InferOutput<typeof WorkOrderImportJson>

export const WorkOrderImportCsv = v.object({
  csv: v.pipe(v.string(), v.maxLength(IMPORT_CSV_MAX_BYTES, 'the CSV is larger than 2 MiB')),
})

export const ImportRowError = v.object({
  /** 1-based data row (the CSV header is row 0). */
  row: v.number(),
  field: v.nullable(v.string()),
  code: v.string(),
  message: v.string(),
  /** What is wrong with the value, for a message in the reader's language (src/input-issues.ts). */
  kind: v.optional(v.picklist(INPUT_ISSUE_KINDS)),
  limit: v.optional(v.number()),
  /** The field's value as the file had it (null when it was missing). */
  value: v.optional(v.nullable(v.string())),
})
export type ImportRowError = v.InferOutput<typeof ImportRowError>

export const ImportPreviewRow = v.object({
  row: v.number(),
  product_code: v.string(),
  quantity: v.nullable(v.number()),
  start_from: v.nullable(v.string()),
  due_by: v.nullable(v.string()),
  line: v.string(),
  operator_username: v.nullable(v.string()),
  errors: v.array(ImportRowError),
})
export type ImportPreviewRow = v.InferOutput<typeof ImportPreviewRow>

export const ImportPreview = v.object({ rows: v.array(ImportPreviewRow), valid: v.number(), invalid: v.number() })
export type ImportPreview = v.InferOutput<typeof ImportPreview>

export const ImportResult = v.object({
  created: v.array(v.object({ row: v.number(), _key: v.string(), code: v.string() })),
  /** True when this answer is the stored one of an earlier request with the same Idempotency-Key. */
  replayed: v.boolean(),
})
export type ImportResult = v.InferOutput<typeof ImportResult>

export const IdempotencyKeyHeader = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(200, 'Idempotency-Key: at most 200 characters'),
  v.regex(/^[\x21-\x7e]+$/, 'Idempotency-Key: printable ASCII without spaces'),
)

/**
 * RFC 4180 CSV (quoted fields with "" escapes and line breaks inside quotes), comma or semicolon
 * separated (the header decides: spreadsheets in Italian write semicolons), CRLF or LF, BOM ignored.
 * Returns the records or the line of the first unreadable one.
 */
export function parseCsv(text: string): { ok: true; records: string[][] } | { ok: false; line: number; message: string } {
  const src = text.replace(/^\uFEFF/, '')
  const firstLine = src.split(/\r?\n/, 1)[0] ?? ''
  const sep = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ','
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let i = 0
  const endField = () => {
    record.push(field)
    field = ''
  }
  const endRecord = () => {
    endField()
    if (!(record.length === 1 && record[0] === '')) records.push(record)
    record = []
  }
  while (i < src.length) {
    const ch = src[i]!
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        i++
        const next = src[i]
        if (next !== undefined && next !== sep && next !== '\n' && next !== '\r') return { ok: false, line, message: 'a quoted cell must end at a separator or the end of the line' }
        continue
      }
      if (ch === '\n') line++
      field += ch
      i++
      continue
    }
    if (ch === '"' && field === '') {
      quoted = true
      i++
    } else if (ch === sep) {
      endField()
      i++
    } else if (ch === '\r' || ch === '\n') {
      endRecord()
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1
      line++
    } else {
      field += ch
      i++
    }
  }
  if (quoted) return { ok: false, line, message: 'a quoted cell is never closed' }
  if (field !== '' || record.length) endRecord()
  return { ok: true, records }
}

/** CSV text to JSON rows by the header's column names (unknown columns are an error, empty cells left out). */
export function csvRows(text: string): { ok: true; rows: Record<string, string>[] } | { ok: false; message: string } {
  const parsed = parseCsv(text)
  if (!parsed.ok) return { ok: false, message: `line ${parsed.line}: ${parsed.message}` }
  const [header, ...data] = parsed.records
  if (!header) return { ok: true, rows: [] }
  const names = header.map((h) => h.trim().toLowerCase())
  const unknown = names.filter((n) => !(IMPORT_COLUMNS as readonly string[]).includes(n))
  if (unknown.length) return { ok: false, message: `unknown column(s) ${unknown.join(', ')}; the columns are ${IMPORT_COLUMNS.join(', ')}` }
  if (!names.includes('product_code') || !names.includes('quantity')) return { ok: false, message: 'the header must name at least product_code and quantity' }
  const rows = data.map((cells) => {
    const row: Record<string, string> = {}
    names.forEach((n, i) => {
      const cell = (cells[i] ?? '').trim()
      if (cell !== '') row[n] = cell
    })
    return row
  })
  return { ok: true, rows }
}
