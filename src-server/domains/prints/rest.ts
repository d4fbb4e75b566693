import * as v from 'valibot'
import { PrintInput, PrintLogQuery, PrintRow } from '../../../src/domains/printing/schemas'
import { route } from '../../rest/route'
import * as prints from './service'

const tag = 'prints'

export const printRoutes = [
  route({
    method: 'post',
    path: '/print',
    tag,
    summary:
      "Fill a template with the objects named (product_key, work_order_key, job_key, batch_key, serial_key, issue_key, position_code, values by preset or custom field key; per_serial: one document per serial of the batch), keep the PDF (detail.pdf_url) and, with printer_key, send it. Logged. 422 PRINTER_UNREACHABLE / PRINTER_REFUSED (detail.print_key, detail.pdf_url) when the printer does not take it",
    access: { scope: 'signed-in' },
    body: PrintInput,
    response: PrintRow,
    status: 201,
    handler: (ctx, { body }) => prints.print(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/print',
    tag,
    summary: 'The print log, newest first (limit default 100): template, printer, user, documents, status made|accepted|refused|unreachable, message',
    access: { scope: 'admin' },
    query: PrintLogQuery,
    response: v.array(PrintRow),
    handler: (ctx, { query }) => prints.listPrints(ctx, query),
  }),
]
