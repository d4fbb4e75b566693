import * as v from 'valibot'
import {
  AssignmentRow,
  AssignmentsInput,
  BASE_PDF_MAX_BYTES,
  PrintTemplateRow,
  TemplateCreateForm,
  TemplateListQuery,
  TemplatePatchInput,
} from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { previewTemplate } from '../prints/service'
import * as templates from './service'

const tag = 'print templates'
/** Templates are managed by admins; products' and phases' assignments also by the library staff. */
export const TEMPLATE_EDITORS = ['admin'] as const
export const ASSIGNERS = ['admin', 'library'] as const

export const printTemplateRoutes = [
  route({
    method: 'get',
    path: '/print-template',
    tag,
    summary:
      "With context and context_key (e.g. context 'phase' and the phase key, or 'position' and 'IN'): the templates of that place, not in the trash (assigned there, or whose own context matches, or listed in the place's print_templates). Otherwise the library by name; trash=true lists the trash",
    access: { scope: 'signed-in' },
    query: TemplateListQuery,
    response: v.array(PrintTemplateRow),
    handler: (ctx, { query }) => templates.listTemplates(ctx, query),
  }),
  route({
    method: 'get',
    path: '/print-template/{key}',
    tag,
    summary: 'One print template: base PDF (URL, pages, first page size in points) and its fields',
    access: { scope: 'signed-in' },
    params: v.object({ key: Key }),
    response: PrintTemplateRow,
    handler: (ctx, { params }) => templates.getTemplate(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/print-template',
    tag,
    summary: `New print template (multipart): name, base_pdf (a PDF up to ${BASE_PDF_MAX_BYTES / 1024 / 1024} MiB), optional fields (JSON array: name, kind text|code128|qrcode|datamatrix|ean13, link_type preset|custom_field|fixed, link, page, x, y, width, height in points from the top-left corner, font_size), context and context_key`,
    access: { scope: TEMPLATE_EDITORS },
    multipart: { maxBytes: BASE_PDF_MAX_BYTES + 256 * 1024 },
    body: TemplateCreateForm,
    response: PrintTemplateRow,
    status: 201,
    handler: (ctx, { body }) => templates.createTemplate(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/print-template/{key}',
    tag,
    summary: 'Change name, fields, context, context_key, temp; trash true puts it in the trash, false restores it',
    access: { scope: TEMPLATE_EDITORS },
    params: v.object({ key: Key }),
    body: TemplatePatchInput,
    response: PrintTemplateRow,
    handler: (ctx, { params, body }) => templates.patchTemplate(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'put',
    path: '/print-template/{key}/base',
    tag,
    summary: 'Replace the base PDF (multipart base_pdf); the fields must still fit its pages',
    access: { scope: TEMPLATE_EDITORS },
    params: v.object({ key: Key }),
    multipart: { maxBytes: BASE_PDF_MAX_BYTES + 256 * 1024 },
    body: v.object({ base_pdf: v.file('base_pdf must be a file') }),
    response: PrintTemplateRow,
    handler: (ctx, { params, body }) => templates.replaceBasePdf(ctx, ctx.actor!, params.key, body.base_pdf),
  }),
  route({
    method: 'post',
    path: '/print-template/{key}/preview',
    tag,
    summary: 'The template filled with sample values (values override them by preset or custom field key); detail.pdf_base64',
    access: { scope: TEMPLATE_EDITORS },
    params: v.object({ key: Key }),
    body: v.object({ values: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.string(), v.maxLength(1000)))) }),
    response: v.object({ pdf_base64: v.string() }),
    handler: async (ctx, { params, body }) => ({ pdf_base64: Buffer.from(await previewTemplate(ctx, params.key, body.values)).toString('base64') }),
  }),
  route({
    method: 'post',
    path: '/update-template-assignments',
    tag,
    summary:
      "Add (type add) or remove (type remove) templates at places: context product|phase|operation|issue_type (context_key = its key), position (context_key = position code), settings (context_key product_label, position_label or job_traveller: the work order traveller). All items or none; answers the assignments of the places touched",
    access: { scope: ASSIGNERS },
    body: AssignmentsInput,
    response: v.array(AssignmentRow),
    handler: (ctx, { body }) => templates.updateAssignments(ctx, ctx.actor!, body),
  }),
]
