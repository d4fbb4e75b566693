import { PrintInput, PrintLogInput } from '../../../src/domains/printing/schemas'
import { router, scoped, signedIn } from '../../trpc/init'
import * as prints from './service'

export const printsRouter = router({
  print: signedIn.input(PrintInput).mutation(({ ctx, input }) => prints.print(ctx, ctx.actor, input)),
  log: scoped('admin')
    .input(PrintLogInput)
    .query(({ ctx, input }) => prints.listPrints(ctx, input)),
})
