import * as v from 'valibot'
import { AUDIT_READERS, AuditFilter, AuditPage, AuditTrailInput, CHAIN_CHECKERS, ChainAnchor, ChainCheck } from '../../../src/domains/audit/schemas'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { writeAnchor } from './anchor'
import { checkChainNow } from './chain'
import { auditCsv, auditXlsx } from './export'
import { auditTrail } from './trail'

const readers = { scope: AUDIT_READERS }

const ExportInput = v.object({
  ...AuditFilter.entries,
  format: v.picklist(['csv', 'xlsx'], 'format is csv or xlsx'),
  lang: v.optional(v.picklist(['it', 'en'], 'lang is it or en')),
})

export const auditApi = useCases('audit', {
  trail: query({
    summary:
      'The audit trail: every recorded event newest first, with who, when, the entity, the reason and the changes. Filters: entity type and code (or key), username, event type, days (plant time zone). Pages: pass next_before as before.',
    access: readers,
    input: v.object({ ...AuditTrailInput.entries, direction: v.optional(v.picklist(['forward', 'backward'])) }),
    response: AuditPage,
    rest: { method: 'get', path: '/audit-trail', omit: ['cursor', 'direction'] },
    run: (ctx, { direction: _direction, ...input }) => auditTrail(ctx.db, input),
  }),
  export: restOnly({
    summary: `The audit trail with the same filters as a file: CSV (';'-separated, UTF-8 with BOM) or XLSX; column headers in Italian (lang=it, default) or English. At most 100,000 events (400 EXPORT_TOO_LARGE: narrow the filters).`,
    access: readers,
    input: ExportInput,
    rest: {
      method: 'get',
      path: '/audit-trail/export',
      stream: { contentType: 'text/csv', description: 'The file (text/csv, or application/vnd.openxmlformats-officedocument.spreadsheetml.sheet for xlsx).' },
    },
    run: async (ctx, { format, lang = 'it', ...filter }) => {
      const name = `${lang === 'it' ? 'registro-eventi' : 'audit-trail'}.${format}`
      const headers = { 'content-disposition': `attachment; filename="${name}"` }
      if (format === 'csv') return new Response(await auditCsv(ctx.db, filter, lang), { headers: { ...headers, 'content-type': 'text/csv; charset=utf-8' } })
      return new Response(new Blob([(await auditXlsx(ctx.db, filter, lang)) as Uint8Array<ArrayBuffer>]), {
        headers: { ...headers, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      })
    },
  }),
  chain: query({
    summary: 'Walks the event chain: intact with the number of events, or the first event changed, removed or recorded outside it',
    access: { scope: CHAIN_CHECKERS },
    response: ChainCheck,
    rest: { method: 'get', path: '/audit-chain' },
    run: (ctx) => checkChainNow(ctx.db),
  }),
  anchor: mutation({
    summary:
      'Writes the chain\'s anchor now (also done once a day): the last link\'s number and hash as a JSON file in the file store (MES_DATA_DIR/files/audit-anchors, or the S3 bucket when configured), and a CHAIN_ANCHORED event a data flow can send to a webhook. `bun run verify-audit --anchor FILE` later says whether the chain still reaches that hash at that number.',
    access: { scope: CHAIN_CHECKERS },
    input: v.object({}),
    response: ChainAnchor,
    rest: { method: 'post', path: '/audit-chain/anchor' },
    run: (ctx) => writeAnchor(ctx, ctx.actor),
  }),
})
