import * as v from 'valibot'
import { DefaultPrinterInput, PrinterInput, PrinterPatchInput } from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { router, scoped, signedIn } from '../../trpc/init'
import { testPrint } from '../prints/service'
import * as printers from './service'

export const printersRouter = router({
  list: signedIn.input(v.object({ trash: v.optional(v.boolean()) })).query(({ ctx, input }) => printers.listPrinters(ctx, input)),
  create: scoped('admin')
    .input(PrinterInput)
    .mutation(({ ctx, input }) => printers.createPrinter(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: PrinterPatchInput }))
    .mutation(({ ctx, input }) => printers.patchPrinter(ctx, ctx.actor, input.key, input.patch)),
  test: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => testPrint(ctx, ctx.actor, input.key)),
  myDefault: signedIn.query(({ ctx }) => printers.myDefaultPrinter(ctx, ctx.actor)),
  setDefault: signedIn.input(DefaultPrinterInput).mutation(({ ctx, input }) => printers.setDefaultPrinter(ctx, ctx.actor, input.printer_key)),
})
