/**
 * The history record as an A4 PDF: the header (product, revision, work order, quantities), the
 * serial and its genealogy (a serial's record), then every phase, job and batch with its steps,
 * recorded values, who and when, the components consumed, the corrections, the serials, the
 * issues and the material movements; every signature on a line under what it signed (the
 * revision's release, steps, corrections, issues' closing, movements' reverts). Dates as the app
 * writes them (YYYY/MM/DD HH:mm, the plant's time zone).
 */
import type { HistoryRecord, RecordBatch, RecordLanguage, RecordStep } from '../../../src/domains/history-record/schemas'
import { correctionsSection } from './corrections-pdf'
import { type Labels, labelsFor } from './labels'
import { type Formatters, formatters, signatureLine } from './record-format'
import { PdfWriter, type Row } from '../../pdf/writer'

export async function recordPdf(record: HistoryRecord, lang: RecordLanguage): Promise<Uint8Array> {
  const l = labelsFor(lang)
  const f = formatters(lang, l)
  const subject = record.serial ? `${l.serial} ${record.serial.code}` : `${l.workOrder} ${record.work_order.code}`
  const pdf = await PdfWriter.create(`${l.title} - ${subject}`)
  const w = pdf.contentWidth

  pdf.heading(`${l.title}`, 16)
  pdf.subheading(subject, 12)
  pdf.space(4)
  const rev = record.revision
  pdf.facts([
    [l.product, named(record.product.code, record.product.description)],
    [l.revision, String(rev.number)],
    [l.releasedBy, rev.released_by?.name ?? (rev.origin === 'migration' ? l.migrated : '')],
    [l.releasedAt, f.dateTime(rev.released_at)],
    [l.releaseReason, rev.reason],
    [l.workOrder, record.work_order.code],
    [l.status, f.status(record.work_order.status)],
    [l.line, record.work_order.line],
    [l.startFrom, record.work_order.start_from ?? ''],
    [l.dueBy, record.work_order.due_by ?? ''],
    [l.createdAt, f.dateTime(record.work_order.created_at)],
    [l.closedAt, f.dateTime(record.work_order.closed_at)],
    [`${l.quantities}: ${l.planned}`, f.number(record.quantities.planned)],
    [`${l.quantities}: ${l.done}`, f.number(record.quantities.done)],
    [`${l.quantities}: ${l.scrapped}`, f.number(record.quantities.scrapped)],
    [l.generated, f.dateTime(record.generated_at)],
  ])
  // The release's signatures under the revision it released.
  for (const sig of rev.signatures) pdf.paragraph(`${l.revisionSigned(rev.number)}: ${signatureLine(sig, l, f)}`)
  if (record.work_order.notes) pdf.paragraph(`${l.notes}: ${record.work_order.notes}`)

  const s = record.serial
  if (s) {
    pdf.heading(l.serialSection)
    pdf.facts([
      [l.code, s.code],
      [l.product, named(s.product_code, s.product_description)],
      [l.state, f.status(s.state)],
      [l.phase, s.phase_name ?? ''],
      [l.batch, s.batch_number === null ? '' : String(s.batch_number)],
      [l.operator, s.operator_name ?? ''],
      [l.created, f.dateTime(s.created_at)],
      [l.containedIn, s.contained_in ? `${s.contained_in.code} (${s.contained_in.product_code})` : ''],
    ])
    const data = Object.entries(s.data)
    if (data.length) pdf.paragraph(`${l.data}: ${data.map(([k, v]) => `${k}: ${f.any(v)}`).join('; ')}`)
    pdf.subheading(l.genealogy)
    const parts = s.genealogy.filter((g) => g.depth > 0)
    if (parts.length === 0) pdf.paragraph(l.none, { grey: true })
    else
      pdf.table(
        [
          { title: l.level, width: 50 },
          { title: l.code, width: 170 },
          { title: l.product, width: w - 50 - 170 - 80 },
          { title: l.state, width: 80 },
        ],
        parts.map((g) => [String(g.depth), g.code, named(g.product_code, g.product_description), f.status(g.state)]),
      )
  }

  pdf.heading(l.phases)
  if (record.phases.length === 0) pdf.paragraph(l.none, { grey: true })
  for (const phase of record.phases) {
    pdf.subheading(`${l.phase} ${phase.position} - ${phase.name} (${l.completed} ${f.number(phase.completed_qt)}, ${l.scrappedShort} ${f.number(phase.scrapped_qt)})`, 11)
    for (const job of phase.jobs) {
      pdf.paragraph(
        `${l.job} (${f.status(job.status)}): ${l.operator.toLowerCase()} ${job.operator?.name ?? l.unassigned}, ${l.quantity} ${f.number(job.quantity)}, ${l.completed} ${f.number(job.completed_qt)}`,
        { size: 9 },
      )
      if (job.batches.length === 0) pdf.paragraph(l.noBatches, { grey: true, indent: 10 })
      for (const batch of job.batches) batchSection(pdf, batch, l, f)
    }
  }

  correctionsSection(pdf, record.corrections, l, f)

  pdf.heading(l.serials)
  const serials = record.serials
  pdf.subheading(l.produced)
  if (serials.produced.length === 0) pdf.paragraph(l.none, { grey: true })
  else {
    pdf.table(
      [
        { title: l.code, width: 140 },
        { title: l.phase, width: 110 },
        { title: l.batch, width: 50 },
        { title: l.operator, width: 110 },
        { title: l.created, width: w - 410 },
      ],
      serials.produced.map((p) => [p.code, p.phase_name ?? '', p.batch_number === null ? '' : String(p.batch_number), p.operator_name ?? '', f.dateTime(p.created_at)]),
    )
    if (serials.produced_total > serials.produced.length) pdf.paragraph(l.firstOf(serials.produced.length, serials.produced_total), { grey: true })
  }
  pdf.subheading(l.consumedSerials)
  if (serials.consumed.length === 0) pdf.paragraph(l.none, { grey: true })
  else {
    pdf.table(
      [
        { title: l.code, width: 120 },
        { title: l.product, width: 130 },
        { title: l.into, width: 110 },
        { title: l.phase, width: 80 },
        { title: l.batch, width: w - 440 },
      ],
      serials.consumed.map((c) => [c.code, c.product_code, c.parent_code, c.phase_name ?? '', c.batch_number === null ? '' : String(c.batch_number)]),
    )
    if (serials.consumed_total > serials.consumed.length) pdf.paragraph(l.firstOf(serials.consumed.length, serials.consumed_total), { grey: true })
  }

  pdf.heading(l.issues)
  if (record.issues.length === 0) pdf.paragraph(l.none, { grey: true })
  else
    pdf.table(
      [
        { title: l.code, width: 70 },
        { title: l.type, width: 70 },
        { title: l.titleCol, width: w - 70 - 70 - 120 - 120 },
        { title: l.opened, width: 120 },
        { title: l.closed, width: 120 },
      ],
      record.issues.map((i) => ({
        cells: [
          i.code + (i.critical ? ` (${l.critical})` : ''),
          i.type_code,
          i.description ? `${i.title}: ${i.description}` : i.title,
          `${f.dateTime(i.opened_at)} ${i.opened_by_name ?? ''}`,
          i.state === 'closed' ? `${f.dateTime(i.closed_at)} ${i.closed_by_name ?? ''}` : `${f.status(i.state)} - ${l.stillOpen}`,
        ],
        // The closing's signatures under the issue it closed.
        notes: i.signatures.map((sig) => signatureLine(sig, l, f)),
      })),
    )

  pdf.heading(l.movements)
  if (record.movements.length === 0) pdf.paragraph(l.none, { grey: true })
  else
    pdf.table(
      [
        { title: l.number, width: 45 },
        { title: l.type, width: 70 },
        { title: l.product, width: 100 },
        { title: l.quantityCol, width: 50 },
        { title: `${l.from} / ${l.to}`, width: 90 },
        { title: l.status, width: 60 },
        { title: l.when, width: w - 415 },
      ],
      record.movements.map((m) => ({
        cells: [
          `M-${m.number}`,
          l.movementTypes[m.type] ?? m.type,
          m.serial ? `${m.product_code} (${m.serial})` : m.product_code,
          f.number(m.confirmed_quantity ?? m.planned_quantity),
          `${m.from_position_code ?? '-'} / ${m.to_position_code ?? '-'}`,
          f.status(m.status),
          `${f.dateTime(m.ended_at ?? m.started_at)} ${m.user_name ?? ''}`,
        ],
        // A revert under the movement it reverted: its reason, then its signatures.
        notes: [
          ...(m.reverts_number !== null ? [`${l.revertOf} M-${m.reverts_number}`] : []),
          ...(m.reverted_by_number !== null ? [`${l.revertedBy} M-${m.reverted_by_number}${m.revert_reason ? `: ${m.revert_reason}` : ''}`] : []),
          ...m.signatures.map((sig) => signatureLine(sig, l, f)),
        ],
      })),
    )

  return pdf.finish(l.page)
}

const named = (code: string, description: string) => (description ? `${code} - ${description}` : code)

function batchSection(pdf: PdfWriter, batch: RecordBatch, l: Labels, f: Formatters) {
  const who = (name: string | undefined, at: number | null) => (name ? `${name} ${l.on} ${f.dateTime(at)}` : f.dateTime(at))
  const head = [
    `${l.batch} ${batch.number}: ${f.number(batch.qt_total)} ${l.pieces}`,
    batch.scrapped_qt ? `${l.scrappedShort} ${f.number(batch.scrapped_qt)}` : '',
    `${l.openedBy} ${who(batch.opened_by?.name, batch.opened_at)}`,
    batch.completed_at ? `${l.completedBy} ${who(batch.completed_by?.name, batch.completed_at)}` : f.status(batch.status),
  ].filter(Boolean)
  pdf.subheading(head.join(' - '), 9.5)
  const w = pdf.contentWidth
  pdf.table(
    [
      { title: '#', width: 22 },
      { title: l.step, width: 170 },
      { title: l.values, width: w - 22 - 170 - 95 - 75 },
      { title: l.who, width: 95 },
      { title: l.when, width: 75 },
    ],
    batch.steps.map((s) => stepRow(s, l, f)),
  )
  if (batch.consumed.length) pdf.paragraph(`${l.consumed}: ${batch.consumed.map((c) => `${c.item_code} x ${f.number(c.quantity)}`).join(', ')}`, { size: 8.5, indent: 10 })
}

function stepRow(s: RecordStep, l: Labels, f: Formatters): Row {
  const title = (s.title || `${l.step} ${s.position + 1}`) + (s.critical ? ` (${l.critical})` : '')
  return {
    cells: [
      String(s.position + 1),
      s.text ? `${title}\n${s.text}` : title,
      s.values.map((v) => `${v.name}: ${f.value(v)}`).join('\n'),
      s.done ? (s.done_by?.name ?? '') : l.notDone,
      s.done ? f.dateTime(s.done_at) : '',
    ],
    // Each signature under the step it signed, across the table.
    notes: s.signatures.map((sig) => signatureLine(sig, l, f)),
  }
}
