/**
 * The printed record's corrections: a table of what was corrected (a job's progress or times, a
 * serial's code, data or links), when, by whom, each value before and after and the reason, with
 * the correction's signatures under it.
 */
import type { RecordChange, RecordCorrection } from '../../../src/domains/history-record/schemas'
import type { PdfWriter } from '../../pdf/writer'
import type { Labels } from './labels'
import { type Formatters, signatureLine } from './record-format'

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)

export function correctionsSection(pdf: PdfWriter, corrections: readonly RecordCorrection[], l: Labels, f: Formatters) {
  pdf.heading(l.corrections)
  if (corrections.length === 0) {
    pdf.paragraph(l.noCorrections, { grey: true })
    return
  }
  const w = pdf.contentWidth
  pdf.table(
    [
      { title: l.when, width: 70 },
      { title: l.who, width: 80 },
      { title: l.correction, width: 120 },
      { title: l.changes, width: w - 70 - 80 - 120 - 105 },
      { title: l.reason, width: 105 },
    ],
    corrections.map((c) => ({
      cells: [f.dateTime(c.at), c.by?.name ?? '', what(c, l), c.changes.flatMap((x) => changeLines(x, l, f)).join('\n'), c.reason ?? ''],
      notes: c.signatures.map((sig) => signatureLine(sig, l, f)),
    })),
  )
}

/** What was corrected: the kind of correction and its record (the job's phase and operator, or the serial). */
function what(c: RecordCorrection, l: Labels): string {
  const kind = l.correctionTypes[c.event_type] ?? c.event_type
  if (c.kind === 'serial') return `${kind}: ${c.serial_code ?? ''}`
  const job = [c.phase_name ? `${l.phase} ${c.phase_name}` : '', `${l.job} ${c.operator_name ?? l.unassigned}`].filter(Boolean).join(', ')
  return `${kind} (${job})`
}

/**
 * One line per value changed, "name: before -> after". Keys of records (a batch's key) are left
 * out: the correction's own line says what they are. An object (a serial's data) shows each of
 * its entries that changed.
 */
function changeLines(c: RecordChange, l: Labels, f: Formatters): string[] {
  if (c.field.endsWith('_id') || c.field.endsWith('_key')) return []
  const name = l.fields[c.field] ?? c.field
  if ((isObject(c.from) || c.from === null) && (isObject(c.to) || c.to === null) && c.field === 'data') {
    const from = (c.from ?? {}) as Record<string, unknown>
    const to = (c.to ?? {}) as Record<string, unknown>
    return [...new Set([...Object.keys(from), ...Object.keys(to)])]
      .filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]))
      .map((k) => `${name} ${k}: ${text(c.field, from[k], f)} -> ${text(c.field, to[k], f)}`)
  }
  return [`${name}: ${text(c.field, c.from, f)} -> ${text(c.field, c.to, f)}`]
}

function text(field: string, value: unknown, f: Formatters): string {
  if (value === null || value === undefined || value === '') return '-'
  if (field === 'time_spent_ms' && typeof value === 'number') return duration(value)
  if (field === 'status' && typeof value === 'string') return f.status(value)
  if (field.endsWith('_at') && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return f.dateTime(Date.parse(value))
  if (isObject(value))
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${f.any(v)}`)
      .join(', ')
  return f.any(value)
}

/** Working time as h:mm:ss. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}
