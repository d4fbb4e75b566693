import * as v from 'valibot'
import { DefaultPrinterInput, PrinterInput, PrinterPatchInput, PrinterRow, PrintRow } from '../../../src/domains/printing/schemas'
import { Key, QueryBool } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { testPrint } from '../prints/service'
import * as printers from './service'

const tag = 'printers'

export const printerRoutes = [
  route({
    method: 'get',
    path: '/printer',
    tag,
    summary: 'The printers library by name (trash=true: the trash)',
    access: { scope: 'signed-in' },
    query: v.object({ trash: v.optional(QueryBool) }),
    response: v.array(PrinterRow),
    handler: (ctx, { query }) => printers.listPrinters(ctx, query),
  }),
  route({
    method: 'post',
    path: '/printer',
    tag,
    summary: 'New printer: name (unique), host, protocol ipp (default port 631, path /ipp/print) or raw (TCP, default port 9100)',
    access: { scope: 'admin' },
    body: PrinterInput,
    response: PrinterRow,
    status: 201,
    handler: (ctx, { body }) => printers.createPrinter(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/printer/{key}',
    tag,
    summary: 'Change a printer; trash true puts it in the trash (and clears it as anyone default), false restores it',
    access: { scope: 'admin' },
    params: v.object({ key: Key }),
    body: PrinterPatchInput,
    response: PrinterRow,
    handler: (ctx, { params, body }) => printers.patchPrinter(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/printer/{key}/test',
    tag,
    summary: 'Send a one-page test print; logged. 422 PRINTER_UNREACHABLE (within a few seconds) or PRINTER_REFUSED when it does not take it',
    access: { scope: 'admin' },
    params: v.object({ key: Key }),
    response: PrintRow,
    handler: (ctx, { params }) => testPrint(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'get',
    path: '/printer/default',
    tag,
    summary: "The signed-in user's default printer (null when none)",
    access: { scope: 'signed-in' },
    response: v.nullable(PrinterRow),
    handler: (ctx) => printers.myDefaultPrinter(ctx, ctx.actor!),
  }),
  route({
    method: 'put',
    path: '/printer/default',
    tag,
    summary: "Change the signed-in user's default printer (printer_key null clears it); 404 UNKNOWN_PRINTER when it does not exist or is in the trash",
    access: { scope: 'signed-in' },
    body: DefaultPrinterInput,
    response: v.nullable(PrinterRow),
    handler: (ctx, { body }) => printers.setDefaultPrinter(ctx, ctx.actor!, body.printer_key),
  }),
]
