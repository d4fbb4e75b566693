import * as v from 'valibot'
import { IdempotencyKeyHeader, WorkOrderImportCsv } from '../../../src/domains/flows/imports'
import { router, scoped } from '../../trpc/init'
import * as imports from './service'

/** The planner's CSV upload: a preview first, then the import with the upload's idempotency key. */
export const importsRouter = router({
  previewCsv: scoped('production')
    .input(WorkOrderImportCsv)
    .mutation(({ ctx, input }) => imports.previewImport(ctx, ctx.actor, imports.rowsOfCsv(input.csv))),
  importCsv: scoped('production')
    .input(v.object({ csv: WorkOrderImportCsv.entries.csv, idempotency_key: IdempotencyKeyHeader }))
    .mutation(({ ctx, input }) => imports.importWorkOrders(ctx, ctx.actor, imports.rowsOfCsv(input.csv), input.idempotency_key, 'csv')),
})
