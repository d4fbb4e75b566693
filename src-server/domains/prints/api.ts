import * as v from 'valibot'
import { PrintInput, PrintLogInput, PrintRow } from '../../../src/domains/printing/schemas'
import { mutation, query, useCases } from '../../api/use-case'
import * as prints from './service'

export const printsApi = useCases('prints', {
  print: mutation({
    summary:
      "Fill a template with the objects named (product_key, work_order_key, job_key, batch_key, serial_key, issue_key, position_code, values by preset or custom field key; per_serial: one document per serial of the batch), keep the PDF (detail.pdf_url) and, with printer_key, send it. Logged. 422 PRINTER_UNREACHABLE / PRINTER_REFUSED (detail.print_key, detail.pdf_url) when the printer does not take it",
    access: { scope: 'signed-in' },
    input: PrintInput,
    response: PrintRow,
    rest: { method: 'post', path: '/print', status: 201 },
    run: (ctx, input) => prints.print(ctx, ctx.actor, input),
  }),
  log: query({
    summary: 'The print log, newest first (limit default 100): template, printer, user, documents, status made|accepted|refused|unreachable, message',
    access: { scope: 'admin' },
    input: PrintLogInput,
    response: v.array(PrintRow),
    rest: { method: 'get', path: '/print' },
    run: (ctx, input) => prints.listPrints(ctx, input),
  }),
})
