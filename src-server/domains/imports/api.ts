import type { Context } from 'hono'
import * as v from 'valibot'
import {
  IMPORT_COLUMNS,
  IMPORT_CSV_MAX_BYTES,
  IdempotencyKeyHeader,
  ImportPreview,
  ImportResult,
  WorkOrderImportCsv,
  WorkOrderImportJson,
} from '../../../src/domains/flows/imports'
import { mutation, restOnly, useCases } from '../../api/use-case'
import * as imports from './service'

const production = { scope: 'production' } as const
const ROWS = `Each row: product_code (a product's code), quantity (whole pieces; "1.000" = 1000), start_from and due_by (YYYY/MM/DD or YYYY-MM-DD), line, notes, operator_username (every phase's operator). Every row is created as POST /work-order does (same rules, events and webhooks), all in one transaction: with any bad row nothing is created and the answer is 422 IMPORT_ROWS_INVALID with errors [{row, field, code, message}] for every row.`
const IDEMPOTENCY = 'Header Idempotency-Key is required (400 IDEMPOTENCY_KEY_REQUIRED): one new value per import, the same on a retry. A retry gets the first answer again with replayed: true and creates nothing twice; the same key with other rows is 409 IDEMPOTENCY_KEY_REUSED.'
const CsvFile = v.object({ file: v.pipe(v.file('file must be a CSV file'), v.maxSize(IMPORT_CSV_MAX_BYTES, 'the CSV is larger than 2 MiB')) })
const multipart = { maxBytes: IMPORT_CSV_MAX_BYTES + 64 * 1024 }
const idempotencyKey = (ctx: { hono?: Context }) => imports.idempotencyKeyOf(ctx.hono!.req.header('idempotency-key'))

/**
 * The planner's screen sends the CSV text over tRPC, a preview first, then the import with the
 * upload's idempotency key; scripts post JSON rows or the CSV file with an Idempotency-Key header.
 */
export const importsApi = useCases('imports', {
  previewCsv: mutation({
    summary: "What an import of this CSV text would create and every row's errors; nothing is written",
    access: production,
    input: WorkOrderImportCsv,
    response: ImportPreview,
    run: (ctx, input) => imports.previewImport(ctx, ctx.actor, imports.rowsOfCsv(input.csv)),
  }),
  importCsv: mutation({
    summary: 'Import work orders from CSV text, once per idempotency key',
    access: production,
    input: v.object({ csv: WorkOrderImportCsv.entries.csv, idempotency_key: IdempotencyKeyHeader }),
    response: ImportResult,
    run: (ctx, input) => imports.importWorkOrders(ctx, ctx.actor, imports.rowsOfCsv(input.csv), input.idempotency_key, 'csv'),
  }),
  importJson: restOnly({
    summary: `Import work orders from JSON {rows: [...]} (at most 1000). ${ROWS} ${IDEMPOTENCY}`,
    access: production,
    input: WorkOrderImportJson,
    response: ImportResult,
    rest: { method: 'post', path: '/import/work-orders', status: 201 },
    run: (ctx, input) => imports.importWorkOrders(ctx, ctx.actor, input.rows, idempotencyKey(ctx), 'json'),
  }),
  importCsvFile: restOnly({
    summary: `Import work orders from a CSV file (multipart field \`file\`, UTF-8, a header row naming the columns ${IMPORT_COLUMNS.join(', ')}; comma or semicolon separated). ${ROWS} ${IDEMPOTENCY}`,
    access: production,
    input: CsvFile,
    response: ImportResult,
    rest: { method: 'post', path: '/import/work-orders/csv', status: 201, multipart },
    run: async (ctx, input) => imports.importWorkOrders(ctx, ctx.actor, imports.rowsOfCsv(await input.file.text()), idempotencyKey(ctx), 'csv'),
  }),
  previewJson: restOnly({
    summary: `What an import of these JSON rows would create and every row's errors; nothing is written. ${ROWS}`,
    access: production,
    input: WorkOrderImportJson,
    response: ImportPreview,
    rest: { method: 'post', path: '/import/work-orders/preview' },
    run: (ctx, input) => imports.previewImport(ctx, ctx.actor, input.rows),
  }),
  previewCsvFile: restOnly({
    summary: "What an import of this CSV file (multipart field `file`) would create and every row's errors; nothing is written.",
    access: production,
    input: CsvFile,
    response: ImportPreview,
    rest: { method: 'post', path: '/import/work-orders/csv/preview', multipart },
    run: async (ctx, input) => imports.previewImport(ctx, ctx.actor, imports.rowsOfCsv(await input.file.text())),
  }),
})
