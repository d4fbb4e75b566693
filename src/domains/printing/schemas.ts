import * as v from 'valibot'
import { Key, StorableText } from '../../valibot-helpers'

/**
 * Printing (SPEC 3 Print template, Printer; SPEC 7 `GET print-template`, `POST
 * update-template-assignments`): a template is a base PDF plus fields placed on it by coordinates
 * (PDF points from the page's bottom-left corner, page 1-based); printers are reached by IPP or raw
 * TCP (port 9100) from the server.
 */

/** Base PDFs larger than this are refused (413). */
export const BASE_PDF_MAX_BYTES = 20 * 1024 * 1024
export const TEMPLATE_NAME_MAX = 200
export const TEMPLATE_FIELDS_MAX = 200
/** How many documents (labels) one print may hold: one per serial of a batch. */
export const PRINT_COPIES_MAX = 1000

/** What a text or barcode field shows when it is bound to a preset. */
export const PRESETS = [
  'product_code',
  'product_description',
  'work_order_code',
  'quantity',
  'due_date',
  'job',
  'phase',
  'operator',
  'serial_code',
  'position_code',
  'position_description',
  'position_path',
  'issue_code',
  'issue_title',
  'today',
  'job_url',
] as const
export type Preset = (typeof PRESETS)[number]

export const FIELD_KINDS = ['text', 'code128', 'qrcode', 'datamatrix', 'ean13'] as const
export type FieldKind = (typeof FIELD_KINDS)[number]

/** A field's link type: a preset, a custom field (form field key) or fixed text. */
export const LINK_TYPES = ['preset', 'custom_field', 'fixed'] as const
export type LinkType = (typeof LINK_TYPES)[number]

/** Where templates are assigned (`update-template-assignments` context). */
export const ASSIGNMENT_CONTEXTS = ['product', 'phase', 'operation', 'issue_type', 'position', 'settings'] as const
export type AssignmentContext = (typeof ASSIGNMENT_CONTEXTS)[number]
/** The settings' label templates (context 'settings'). */
export const SETTINGS_LABELS = ['product_label', 'position_label', 'job_traveller'] as const

const Coord = v.pipe(v.number(), v.minValue(0), v.maxValue(14400))
const Size = v.pipe(v.number(), v.minValue(1), v.maxValue(14400))

export const TemplateField = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'a field needs a name'), v.maxLength(100), StorableText),
  kind: v.picklist(FIELD_KINDS),
  link_type: v.picklist(LINK_TYPES),
  /** The preset name, the custom field key, or the fixed text. */
  link: v.pipe(v.string(), v.maxLength(500), StorableText),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 1),
  x: Coord,
  y: Coord,
  width: Size,
  height: Size,
  /** Text size in points (text fields). */
  font_size: v.optional(v.pipe(v.number(), v.minValue(4), v.maxValue(200)), 10),
})
export type TemplateField = v.InferOutput<typeof TemplateField>

const TemplateName = v.pipe(v.string(), v.trim(), v.minLength(1, 'a template needs a name'), v.maxLength(TEMPLATE_NAME_MAX), StorableText)
const ContextText = v.pipe(v.string(), v.trim(), v.maxLength(100), StorableText)

export const TemplateFields = v.pipe(v.array(TemplateField), v.maxLength(TEMPLATE_FIELDS_MAX))

/** A blank label's sides in millimetres: from a small part label to an A3 sheet and a bit more. */
export const BLANK_LABEL_MM = { min: 10, max: 500 } as const
const LabelSide = (side: string) =>
  v.pipe(
    v.number(`${side}_mm must be a number of millimetres`),
    v.minValue(BLANK_LABEL_MM.min, `${side}_mm must be at least ${BLANK_LABEL_MM.min} mm`),
    v.maxValue(BLANK_LABEL_MM.max, `${side}_mm must be at most ${BLANK_LABEL_MM.max} mm`),
  )

/** `POST print-template/blank`: a template on a blank page of the given size, to place fields on. */
export const TemplateBlankInput = v.object({
  name: TemplateName,
  width_mm: LabelSide('width'),
  height_mm: LabelSide('height'),
  context: v.optional(ContextText),
  context_key: v.optional(ContextText),
})
export type TemplateBlankInput = v.InferOutput<typeof TemplateBlankInput>

/** `POST print-template` (multipart): `base_pdf` plus the other fields; `fields` as JSON text. */
export const TemplateCreateForm = v.object({
  name: TemplateName,
  base_pdf: v.file('base_pdf must be a file'),
  context: v.optional(ContextText),
  context_key: v.optional(ContextText),
  fields: v.optional(v.string()),
})

export const TemplatePatchInput = v.object({
  name: v.optional(TemplateName),
  fields: v.optional(TemplateFields),
  context: v.optional(v.nullable(ContextText)),
  context_key: v.optional(v.nullable(ContextText)),
  temp: v.optional(v.boolean()),
  trash: v.optional(v.boolean()),
})
export type TemplatePatchInput = v.InferOutput<typeof TemplatePatchInput>

export const PrintTemplateRow = v.object({
  _key: v.string(),
  name: v.string(),
  base_pdf_name: v.string(),
  base_pdf_url: v.string(),
  pages: v.number(),
  page_width: v.number(),
  page_height: v.number(),
  fields: v.array(TemplateField),
  context: v.nullable(v.string()),
  context_key: v.nullable(v.string()),
  temp: v.boolean(),
  trash: v.boolean(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type PrintTemplateRow = v.InferOutput<typeof PrintTemplateRow>

/** `GET print-template`: the library (trash with `trash=true`), or the templates of one context. */
export const TemplateListInput = v.object({
  context: v.optional(ContextText),
  context_key: v.optional(ContextText),
  trash: v.optional(v.boolean()),
})
export type TemplateListInput = v.InferOutput<typeof TemplateListInput>

export const AssignmentItem = v.object({
  type: v.picklist(['add', 'remove']),
  context: v.picklist(ASSIGNMENT_CONTEXTS),
  context_key: v.pipe(Key, StorableText),
  template_key: Key,
})
export const AssignmentsInput = v.object({ items: v.pipe(v.array(AssignmentItem), v.minLength(1), v.maxLength(200)) })
export type AssignmentsInput = v.InferOutput<typeof AssignmentsInput>
export const AssignmentRow = v.object({ context: v.string(), context_key: v.string(), template_key: v.string() })

// --- printers ---------------------------------------------------------------------------------

export const PRINTER_PROTOCOLS = ['ipp', 'ipps', 'raw'] as const
export type PrinterProtocol = (typeof PRINTER_PROTOCOLS)[number]
export const PrinterName = v.pipe(v.string(), v.trim(), v.minLength(1, 'a printer needs a name'), v.maxLength(100), StorableText)
const Host = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'a printer needs a host'),
  v.maxLength(253),
  v.regex(/^[A-Za-z0-9.:_-]+$/, 'a host name or IP address'),
)
const Port = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535))
const IppPath = v.pipe(v.string(), v.trim(), v.maxLength(200), v.regex(/^\/[A-Za-z0-9/._~-]*$/, 'a path starting with /'))

/** The whole address in one: ipp://host[:port]/path, ipps://..., socket://host[:port] (printer-uri.ts). */
const Uri = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500), StorableText)

/** A printer by its URI, or by host (port, protocol and path defaulted); one of the two is required (the service says so). */
export const PrinterInput = v.object({
  name: PrinterName,
  uri: v.optional(Uri),
  host: v.optional(Host),
  port: v.optional(Port),
  protocol: v.optional(v.picklist(PRINTER_PROTOCOLS), 'ipp'),
  /** IPP resource path (default /ipp/print). */
  path: v.optional(IppPath),
})
export type PrinterInput = v.InferOutput<typeof PrinterInput>
export const PrinterPatchInput = v.object({
  name: v.optional(PrinterName),
  uri: v.optional(Uri),
  host: v.optional(Host),
  port: v.optional(Port),
  protocol: v.optional(v.picklist(PRINTER_PROTOCOLS)),
  path: v.optional(IppPath),
  trash: v.optional(v.boolean()),
})
export type PrinterPatchInput = v.InferOutput<typeof PrinterPatchInput>
export const PrinterRow = v.object({
  _key: v.string(),
  name: v.string(),
  host: v.string(),
  port: v.number(),
  protocol: v.picklist(PRINTER_PROTOCOLS),
  path: v.string(),
  trash: v.boolean(),
})
export type PrinterRow = v.InferOutput<typeof PrinterRow>
export const DefaultPrinterInput = v.object({ printer_key: v.nullable(Key) })

// --- prints -----------------------------------------------------------------------------------

/** What a print is filled with: the objects it is about (each optional) and custom values. */
export const PrintSubject = v.object({
  product_key: v.optional(Key),
  job_key: v.optional(Key),
  batch_key: v.optional(Key),
  work_order_key: v.optional(Key),
  serial_key: v.optional(Key),
  issue_key: v.optional(Key),
  position_code: v.optional(v.pipe(v.string(), v.maxLength(100), StorableText)),
  /** One label per serial of the batch (when the batch has serials). */
  per_serial: v.optional(v.boolean()),
  /** Values for custom fields and presets, by key (override what the objects give). */
  values: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.string(), v.maxLength(1000), StorableText))),
})
export type PrintSubject = v.InferOutput<typeof PrintSubject>

export const PrintInput = v.object({
  ...PrintSubject.entries,
  template_key: Key,
  /** Sent to this printer; without it the document is only made (download). */
  printer_key: v.optional(v.nullable(Key)),
  copies: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 1),
  /** The address the app is opened at (for the job_url preset: a QR that opens the job). */
  app_url: v.optional(v.pipe(v.string(), v.maxLength(200), v.regex(/^https?:\/\/[^\s/]+$/, 'scheme and host, like https://mes.example.com'))),
})
export type PrintInput = v.InferOutput<typeof PrintInput>

export const PrintRow = v.object({
  _key: v.string(),
  /** null for a printer's test print and for documents the server lays out itself (a movement list). */
  template_key: v.nullable(v.string()),
  /** The template's name, or the title of a document without one ("Lista movimenti LST-3"); null for a test print. */
  template_name: v.nullable(v.string()),
  printer_key: v.nullable(v.string()),
  printer_name: v.nullable(v.string()),
  user_key: v.nullable(v.string()),
  username: v.nullable(v.string()),
  /** Name and surname, as the print log shows who printed (null when the user has none: the username stands in). */
  user_name: v.nullable(v.string()),
  documents: v.number(),
  subject: v.record(v.string(), v.unknown()),
  status: v.picklist(['made', 'accepted', 'refused', 'unreachable']),
  message: v.string(),
  pdf_url: v.string(),
  created_at: v.number(),
})
export type PrintRow = v.InferOutput<typeof PrintRow>

export const PrintLogInput = v.object({
  template_key: v.optional(Key),
  printer_key: v.optional(Key),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500))),
})
