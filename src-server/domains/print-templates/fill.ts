import { PDFDocument, type PDFFont, type PDFPage, popGraphicsState, pushGraphicsState, StandardFonts, rgb } from '@pdfme/pdf-lib'
import bwipjs from 'bwip-js/node'
import type { FieldKind, Preset, TemplateField } from '../../../src/domains/printing/schemas'
import { unprocessable } from '../../errors'

/**
 * Filling a print template: the base PDF's pages are embedded once (one form XObject per page)
 * and drawn on a new page per document (label), then each field is drawn at its place: text in
 * Helvetica shrunk to fit its box, barcodes (Code 128, QR, DataMatrix, EAN-13) encoded by bwip-js
 * and drawn as vector paths fitted into theirs. Coordinates are PDF points from the page's top-left corner.
 */

/** The values one document is filled with. */
export type DocumentValues = {
  presets: Partial<Record<Preset, string>>
  /** Custom field values by form field key. */
  custom: Record<string, string>
}

export type FillTemplate = { base: Uint8Array; fields: readonly TemplateField[] }

/** A PDF the base must be: parsable, not encrypted, at least one page. */
export async function inspectBasePdf(bytes: Uint8Array): Promise<{ pages: number; width: number; height: number } | null> {
  if (!isPdf(bytes)) return null
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false })
    const pages = doc.getPages()
    if (pages.length === 0) return null
    const { width, height } = pages[0]!.getSize()
    return { pages: pages.length, width, height }
  } catch {
    return null
  }
}

export const isPdf = (bytes: Uint8Array) => bytes.length > 8 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-'

/** The value a field shows for one document ('' when the document has none). */
export function fieldValue(field: TemplateField, values: DocumentValues): string {
  if (field.link_type === 'fixed') return field.link
  if (field.link_type === 'preset') return values.presets[field.link as Preset] ?? ''
  return values.custom[field.link] ?? values.custom[field.link.toLowerCase()] ?? ''
}

const BCID: Record<Exclude<FieldKind, 'text'>, string> = { code128: 'code128', qrcode: 'qrcode', datamatrix: 'datamatrix', ean13: 'ean13' }

/** A barcode as a vector path in module units (dark modules / bars), with its size in modules. */
export type BarcodeShape = { path: string; width: number; height: number; linear: boolean }

/**
 * A barcode drawn by bwip-js (`raw`: the module matrix of 2D symbols, the bar/space widths of
 * linear ones) as one SVG path of rectangles: vector output, crisp at any printer resolution, and
 * no PNG to encode, embed and compress per label. A value the symbology cannot carry is a 422
 * naming the field.
 */
export function barcodeShape(kind: Exclude<FieldKind, 'text'>, text: string, fieldName: string): BarcodeShape {
  let symbol: { pixs?: number[]; pixx?: number; pixy?: number; sbs?: number[] }
  try {
    symbol = (bwipjs.raw(BCID[kind], text, '') as unknown as (typeof symbol)[])[0]!
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/^bwipp\.\w+#\d+:\s*/, '')
    throw unprocessable('PRINT_VALUE_INVALID', `the field ${fieldName} cannot show ${JSON.stringify(text)} as ${kind}: ${why}`, { field: fieldName, value: text, kind })
  }
  const parts: string[] = []
  if (symbol.sbs) {
    let x = 0
    for (const [i, w] of symbol.sbs.entries()) {
      if (i % 2 === 0 && w > 0) parts.push(`M${x} 0h${w}v1h${-w}z`)
      x += w
    }
    return { path: parts.join(''), width: x, height: 1, linear: true }
  }
  const cols = symbol.pixx!
  const rows = symbol.pixy!
  const pixs = symbol.pixs!
  for (let y = 0; y < rows; y++) {
    let x = 0
    while (x < cols) {
      if (!pixs[y * cols + x]) {
        x++
        continue
      }
      let end = x
      while (end < cols && pixs[y * cols + end]) end++
      // pdf-lib draws SVG paths with y going up: row 0 (the top) is the highest.
      parts.push(`M${x} ${rows - 1 - y}h${end - x}v1h${x - end}z`)
      x = end
    }
  }
  return { path: parts.join(''), width: cols, height: rows, linear: false }
}

/** Text Helvetica (WinAnsi) can draw: other characters become '?'. */
function drawable(font: PDFFont, text: string, cache: Map<string, boolean>): string {
  let out = ''
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    let ok = cache.get(ch)
    if (ok === undefined) {
      try {
        font.encodeText(ch)
        ok = true
      } catch {
        ok = false
      }
      cache.set(ch, ok)
    }
    out += ok ? ch : '?'
  }
  return out
}

function drawText(page: PDFPage, font: PDFFont, field: TemplateField, text: string, pageHeight: number) {
  if (!text) return
  let size = field.font_size
  while (size > 4 && font.widthOfTextAtSize(text, size) > field.width) size = Math.max(4, size - 0.5)
  let shown = text
  while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > field.width) shown = shown.slice(0, -1)
  const top = pageHeight - field.y
  const baseline = top - Math.min(field.height, size * 1.15) + size * 0.25
  page.drawText(shown, { x: field.x, y: baseline, size, font, color: rgb(0, 0, 0) })
}

function drawBarcode(page: PDFPage, shape: BarcodeShape, field: TemplateField, pageHeight: number) {
  const top = pageHeight - field.y
  const black = rgb(0, 0, 0)
  if (shape.linear) {
    // Linear codes fill their box: bars as tall as the box, widths scaled to it.
    const k = field.width / shape.width
    const path = shape.path.replaceAll('v1h', `v${field.height / k}h`)
    page.drawSvgPath(path, { x: field.x, y: top - field.height, scale: k, color: black })
    return
  }
  const k = Math.min(field.width / shape.width, field.height / shape.height)
  page.drawSvgPath(shape.path, { x: field.x, y: top - shape.height * k, scale: k, color: black })
}

/**
 * One PDF with one copy of the template per document, in order. Throws 422 PRINT_VALUE_INVALID
 * when a barcode cannot carry its value (an EAN-13 of letters, a wrong check digit ...).
 */
export async function fillTemplate(template: FillTemplate, documents: readonly DocumentValues[]): Promise<Uint8Array> {
  const base = await PDFDocument.load(template.base, { updateMetadata: false })
  const out = await PDFDocument.create({ updateMetadata: false })
  const basePages = base.getPages()
  // A page with no content stream (a blank page, as some tools save it) cannot be embedded: it gets an empty one ("q Q").
  for (const page of basePages) if (!page.node.Contents()) page.pushOperators(pushGraphicsState(), popGraphicsState())
  const embedded = await out.embedPages(basePages)
  const font = await out.embedFont(StandardFonts.Helvetica)
  const encodable = new Map<string, boolean>()
  const shapes = new Map<string, BarcodeShape>()
  for (const values of documents) {
    const pages = embedded.map((e, i) => {
      const { width, height } = basePages[i]!.getSize()
      const page = out.addPage([width, height])
      page.drawPage(e, { x: 0, y: 0, width, height })
      return page
    })
    for (const field of template.fields) {
      const page = pages[field.page - 1]
      if (!page) continue
      const pageHeight = page.getHeight()
      const value = fieldValue(field, values)
      if (field.kind === 'text') {
        drawText(page, font, field, drawable(font, value, encodable), pageHeight)
        continue
      }
      if (!value) continue
      const cacheKey = `${field.kind}\u0000${value}`
      let shape = shapes.get(cacheKey)
      if (!shape) {
        shape = barcodeShape(field.kind, value, field.name)
        shapes.set(cacheKey, shape)
      }
      drawBarcode(page, shape, field, pageHeight)
    }
  }
  return out.save()
}
