import { HISTORY_RECORD_READERS, HistoryRecord, RecordInput, RecordPdfInput, type RecordLanguage } from '../../../src/domains/history-record/schemas'
import { languageOf } from '../../api/language'
import { query, restOnly, useCases } from '../../api/use-case'
import { recordPdf } from './record-pdf'
import { serialRecord, workOrderRecord } from './service'

const readers = { scope: HISTORY_RECORD_READERS }

const pdfStream = { contentType: 'application/pdf', description: 'The record as an A4 PDF.' }

async function pdfResponse(record: HistoryRecord, lang: RecordLanguage): Promise<Response> {
  const subject = record.serial?.code ?? record.work_order.code
  const name = `${lang === 'it' ? 'registro-produzione' : 'production-record'}-${subject.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`
  const bytes = await recordPdf(record, lang)
  return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}"` },
  })
}

export const historyRecordApi = useCases('history record', {
  workOrder: query({
    summary:
      'The production record (device history record) of a work order, by key or code: product and revision, quantities, every phase, job and batch with its steps, recorded values, who and when, components consumed, serials, issues and material movements',
    access: readers,
    input: RecordInput,
    response: HistoryRecord,
    rest: { method: 'get', path: '/work-order/{key}/history-record' },
    run: (ctx, { key }) => workOrderRecord(ctx, key),
  }),
  workOrderPdf: restOnly({
    summary: 'The production record of a work order as an A4 PDF, in Italian or English (lang; default the user language)',
    access: readers,
    input: RecordPdfInput,
    rest: { method: 'get', path: '/work-order/{key}/history-record.pdf', stream: pdfStream },
    run: async (ctx, { key, lang }) => pdfResponse(await workOrderRecord(ctx, key), languageOf(ctx, lang)),
  }),
  serial: query({
    summary:
      'The production record of a serial, by key or code: the serial, its genealogy and what it went into, with its work order record narrowed to the batches that made it or fitted its components',
    access: readers,
    input: RecordInput,
    response: HistoryRecord,
    rest: { method: 'get', path: '/serial/{key}/history-record' },
    run: (ctx, { key }) => serialRecord(ctx, key),
  }),
  serialPdf: restOnly({
    summary: 'The production record of a serial as an A4 PDF, in Italian or English (lang; default the user language)',
    access: readers,
    input: RecordPdfInput,
    rest: { method: 'get', path: '/serial/{key}/history-record.pdf', stream: pdfStream },
    run: async (ctx, { key, lang }) => pdfResponse(await serialRecord(ctx, key), languageOf(ctx, lang)),
  }),
})
