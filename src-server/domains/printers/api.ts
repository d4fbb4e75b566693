import * as v from 'valibot'
import { DefaultPrinterInput, PrinterInput, PrinterPatchInput, PrinterRow, PrintRow } from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { libraryCrud } from '../../api/library-crud'
import { mutation, query, useCases } from '../../api/use-case'
import { testPrint } from '../prints/service'
import * as printers from './service'

const admin = { scope: 'admin' } as const
const signedIn = { scope: 'signed-in' } as const
const crud = libraryCrud({ path: '/printer', read: signedIn, write: admin })

export const printersApi = useCases('printers', {
  list: crud.list({
    summary: 'The printers library by name (trash=true: the trash)',
    input: v.object({ trash: v.optional(v.boolean()) }),
    response: v.array(PrinterRow),
    run: printers.listPrinters,
  }),
  create: crud.create({
    summary: 'New printer: name (unique) and uri (ipp://host[:port]/path, ipps:// for IPP over TLS such as a CUPS queue, socket://host[:port] for raw TCP; default ports 631 and 9100), or host with protocol ipp, ipps or raw, port and path; 400 PRINTER_URI_INVALID saying what is wrong',
    input: PrinterInput,
    response: PrinterRow,
    run: printers.createPrinter,
  }),
  patch: crud.patch({
    summary: 'Change a printer; trash true puts it in the trash (and clears it as anyone default), false restores it',
    patch: PrinterPatchInput,
    response: PrinterRow,
    run: printers.patchPrinter,
  }),
  test: mutation({
    summary: 'Send a one-page test print; logged. 422 PRINTER_UNREACHABLE (within a few seconds) or PRINTER_REFUSED when it does not take it',
    access: admin,
    input: v.object({ key: Key }),
    response: PrintRow,
    rest: { method: 'post', path: '/printer/{key}/test' },
    run: (ctx, input) => testPrint(ctx, ctx.actor, input.key),
  }),
  myDefault: query({
    summary: "The signed-in user's default printer (null when none)",
    access: signedIn,
    response: v.nullable(PrinterRow),
    rest: { method: 'get', path: '/printer/default' },
    run: (ctx) => printers.myDefaultPrinter(ctx, ctx.actor),
  }),
  setDefault: mutation({
    summary: "Change the signed-in user's default printer (printer_key null clears it); 404 UNKNOWN_PRINTER when it does not exist or is in the trash",
    access: signedIn,
    input: DefaultPrinterInput,
    response: v.nullable(PrinterRow),
    rest: { method: 'put', path: '/printer/default' },
    run: (ctx, input) => printers.setDefaultPrinter(ctx, ctx.actor, input.printer_key),
  }),
})
