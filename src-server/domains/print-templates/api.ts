import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  AssignmentRow,
  AssignmentsInput,
  BASE_PDF_MAX_BYTES,
  BLANK_LABEL_MM,
  PrintTemplateRow,
  TemplateBlankInput,
  TemplateCreateForm,
  TemplateListInput,
  TemplatePatchInput,
} from '../../../src/domains/printing/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { previewTemplate } from '../prints/service'
import * as templates from './service'

/** Templates are managed by admins; products' and phases' assignments also by the library staff. */
export const TEMPLATE_EDITORS = ['admin'] as const satisfies readonly Scope[]
export const ASSIGNERS = ['admin', 'library'] as const satisfies readonly Scope[]

const edit = { scope: TEMPLATE_EDITORS }
const assign = { scope: ASSIGNERS }
const signedIn = { scope: 'signed-in' } as const
const ByKey = v.object({ key: Key })
const upload = { maxBytes: BASE_PDF_MAX_BYTES + 256 * 1024 }

/** Uploads (`POST print-template`, `PUT print-template/{key}/base`) are multipart, REST only. */
export const printTemplatesApi = useCases('print templates', {
  list: query({
    summary:
      "With context and context_key (e.g. context 'phase' and the phase key, or 'position' and 'IN'): the templates of that place, not in the trash (assigned there, or whose own context matches, or listed in the place's print_templates). Otherwise the library by name; trash=true lists the trash",
    access: signedIn,
    input: TemplateListInput,
    response: v.array(PrintTemplateRow),
    rest: { method: 'get', path: '/print-template' },
    run: (ctx, input) => templates.listTemplates(ctx, input),
  }),
  get: query({
    summary: 'One print template: base PDF (URL, pages, first page size in points) and its fields',
    access: signedIn,
    input: ByKey,
    response: PrintTemplateRow,
    rest: { method: 'get', path: '/print-template/{key}' },
    run: (ctx, input) => templates.getTemplate(ctx, input.key),
  }),
  create: restOnly({
    summary: `New print template (multipart): name, base_pdf (a PDF up to ${BASE_PDF_MAX_BYTES / 1024 / 1024} MiB), optional fields (JSON array: name, kind text|code128|qrcode|datamatrix|ean13, link_type preset|custom_field|fixed, link, page, x, y, width, height in points from the top-left corner, font_size), context and context_key`,
    access: edit,
    input: TemplateCreateForm,
    response: PrintTemplateRow,
    rest: { method: 'post', path: '/print-template', status: 201, multipart: upload },
    run: (ctx, input) => templates.createTemplate(ctx, ctx.actor, input),
  }),
  createBlank: mutation({
    summary: `New print template on a blank page of width_mm x height_mm (${BLANK_LABEL_MM.min} to ${BLANK_LABEL_MM.max} mm each), no fields yet: a label designed in the app`,
    access: edit,
    input: TemplateBlankInput,
    response: PrintTemplateRow,
    rest: { method: 'post', path: '/print-template/blank', status: 201 },
    run: (ctx, input) => templates.createBlankTemplate(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: 'Change name, fields, context, context_key, temp; trash true puts it in the trash, false restores it',
    access: edit,
    input: v.object({ key: Key, patch: TemplatePatchInput }),
    response: PrintTemplateRow,
    rest: { method: 'patch', path: '/print-template/{key}', body: 'patch' },
    run: (ctx, input) => templates.patchTemplate(ctx, ctx.actor, input.key, input.patch),
  }),
  replaceBase: restOnly({
    summary: 'Replace the base PDF (multipart base_pdf); the fields must still fit its pages',
    access: edit,
    input: v.object({ key: Key, base_pdf: v.file('base_pdf must be a file') }),
    response: PrintTemplateRow,
    rest: { method: 'put', path: '/print-template/{key}/base', multipart: upload },
    run: (ctx, input) => templates.replaceBasePdf(ctx, ctx.actor, input.key, input.base_pdf),
  }),
  preview: mutation({
    summary: 'The template filled with sample values (values override them by preset or custom field key); detail.pdf_base64',
    access: edit,
    input: v.object({ key: Key, values: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.string(), v.maxLength(1000)))) }),
    response: v.object({ pdf_base64: v.string() }),
    rest: { method: 'post', path: '/print-template/{key}/preview' },
    run: async (ctx, input) => ({ pdf_base64: Buffer.from(await previewTemplate(ctx, input.key, input.values)).toString('base64') }),
  }),
  assignments: query({
    summary: "A template's assignments: the places it is offered at",
    access: assign,
    input: ByKey,
    run: (ctx, input) => templates.listAssignments(ctx, input.key),
  }),
  productPhases: query({
    summary: "A product's phases, to assign a template to",
    access: assign,
    input: v.object({ product_key: Key }),
    run: (ctx, input) => templates.productPhases(ctx, input.product_key),
  }),
  updateAssignments: mutation({
    summary:
      "Add (type add) or remove (type remove) templates at places: context product|phase|operation|issue_type (context_key = its key), position (context_key = position code), settings (context_key product_label, position_label or job_traveller: the work order traveller). All items or none; answers the assignments of the places touched",
    access: assign,
    input: AssignmentsInput,
    response: v.array(AssignmentRow),
    rest: { method: 'post', path: '/update-template-assignments' },
    run: (ctx, input) => templates.updateAssignments(ctx, ctx.actor, input),
  }),
})
