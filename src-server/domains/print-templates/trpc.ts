import * as v from 'valibot'
import { AssignmentsInput, TemplateListInput, TemplatePatchInput } from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, signedIn } from '../../trpc/init'
import { previewTemplate } from '../prints/service'
import { ASSIGNERS, TEMPLATE_EDITORS } from './rest'
import * as templates from './service'

/** Uploads go through REST (`POST print-template`, multipart); the screens use these. */
export const printTemplatesRouter = router({
  list: signedIn.input(TemplateListInput).query(({ ctx, input }) => templates.listTemplates(ctx, input)),
  get: signedIn.input(v.object({ key: Key })).query(({ ctx, input }) => templates.getTemplate(ctx, input.key)),
  patch: procedure({ scope: TEMPLATE_EDITORS })
    .input(v.object({ key: Key, patch: TemplatePatchInput }))
    .mutation(({ ctx, input }) => templates.patchTemplate(ctx, ctx.actor, input.key, input.patch)),
  preview: procedure({ scope: TEMPLATE_EDITORS })
    .input(v.object({ key: Key, values: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.string(), v.maxLength(1000)))) }))
    .mutation(async ({ ctx, input }) => ({ pdf_base64: Buffer.from(await previewTemplate(ctx, input.key, input.values)).toString('base64') })),
  assignments: procedure({ scope: ASSIGNERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => templates.listAssignments(ctx, input.key)),
  productPhases: procedure({ scope: ASSIGNERS })
    .input(v.object({ product_key: Key }))
    .query(({ ctx, input }) => templates.productPhases(ctx, input.product_key)),
  updateAssignments: procedure({ scope: ASSIGNERS })
    .input(AssignmentsInput)
    .mutation(({ ctx, input }) => templates.updateAssignments(ctx, ctx.actor, input)),
})
