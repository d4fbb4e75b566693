import * as v from 'valibot'
import { IMPORT_COLUMNS, IMPORT_CSV_MAX_BYTES, ImportPreview, ImportResult, WorkOrderImportJson } from '../../../src/domains/flows/imports'
import { route } from '../../rest/route'
import * as imports from './service'

const tag = 'imports'
const ROWS = `Each row: product_code (a product's code), quantity (whole pieces; "1.000" = 1000), start_from and due_by (YYYY/MM/DD or YYYY-MM-DD), line, notes, operator_username (every phase's operator). Every row is created as POST /work-order does (same rules, events and webhooks), all in one transaction: with any bad row nothing is created and the answer is 422 IMPORT_ROWS_INVALID with errors [{row, field, code, message}] for every row.`
const IDEMPOTENCY = 'Header Idempotency-Key is required (400 IDEMPOTENCY_KEY_REQUIRED): one new value per import, the same on a retry. A retry gets the first answer again with replayed: true and creates nothing twice; the same key with other rows is 409 IDEMPOTENCY_KEY_REUSED.'
const csvBody = v.object({ file: v.pipe(v.file('file must be a CSV file'), v.maxSize(IMPORT_CSV_MAX_BYTES, 'the CSV is larger than 2 MiB')) })

export const importRoutes = [
  route({
    method: 'post',
    path: '/import/work-orders',
    tag,
    summary: `Import work orders from JSON {rows: [...]} (at most 1000). ${ROWS} ${IDEMPOTENCY}`,
    access: { scope: 'production' },
    body: WorkOrderImportJson,
    response: ImportResult,
    status: 201,
    handler: (ctx, { body }) => imports.importWorkOrders(ctx, ctx.actor!, body.rows, imports.idempotencyKeyOf(ctx.hono.req.header('idempotency-key')), 'json'),
  }),
  route({
    method: 'post',
    path: '/import/work-orders/csv',
    tag,
    summary: `Import work orders from a CSV file (multipart field \`file\`, UTF-8, a header row naming the columns ${IMPORT_COLUMNS.join(', ')}; comma or semicolon separated). ${ROWS} ${IDEMPOTENCY}`,
    access: { scope: 'production' },
    multipart: { maxBytes: IMPORT_CSV_MAX_BYTES + 64 * 1024 },
    body: csvBody,
    response: ImportResult,
    status: 201,
    handler: async (ctx, { body }) =>
      imports.importWorkOrders(ctx, ctx.actor!, imports.rowsOfCsv(await body.file.text()), imports.idempotencyKeyOf(ctx.hono.req.header('idempotency-key')), 'csv'),
  }),
  route({
    method: 'post',
    path: '/import/work-orders/preview',
    tag,
    summary: `What an import of these JSON rows would create and every row's errors; nothing is written. ${ROWS}`,
    access: { scope: 'production' },
    body: WorkOrderImportJson,
    response: ImportPreview,
    handler: (ctx, { body }) => imports.previewImport(ctx, ctx.actor!, body.rows),
  }),
  route({
    method: 'post',
    path: '/import/work-orders/csv/preview',
    tag,
    summary: 'What an import of this CSV file (multipart field `file`) would create and every row\'s errors; nothing is written.',
    access: { scope: 'production' },
    multipart: { maxBytes: IMPORT_CSV_MAX_BYTES + 64 * 1024 },
    body: csvBody,
    response: ImportPreview,
    handler: async (ctx, { body }) => imports.previewImport(ctx, ctx.actor!, imports.rowsOfCsv(await body.file.text())),
  }),
]
