import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, StandardFonts, rgb } from '@pdfme/pdf-lib'
import bwipjs from 'bwip-js/node'
import type { FieldKind, Preset, TemplateField } from '../../../src/domains/printing/schemas'
import { unprocessable } from '../../errors'

/**
 * Filling a print template: the base PDF's pages are embedded once (one form XObject per page)
 * and drawn on a new page per document (label), then each field is drawn at its place: text in
 * Helvetica shrunk to fit its box, barcodes (Code 128, QR, DataMatrix, EAN-13) rendered by bwip-js
 * as PNG and fitted into theirs. Coordinates are PDF points from the page's top-left corner.
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

/** A barcode as PNG bytes; a value the symbology cannot carry is a 422 naming the field. */
export async function barcodePng(kind: Exclude<FieldKind, 'text'>, text: string, fieldName: string): Promise<Uint8Array> {
  try {
    const linear = kind === 'code128' || kind === 'ean13'
    const png = await bwipjs.toBuffer({ bcid: BCID[kind], text, scale: 4, ...(linear ? { height: 12 } : {}), paddingwidth: 0, paddingheight: 0 })
    return new Uint8Array(png)
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/^bwipp\.\w+#\d+:\s*/, '')
    throw unprocessable('PRINT_VALUE_INVALID', `the field ${fieldName} cannot show ${JSON.stringify(text)} as ${kind}: ${why}`, { field: fieldName, value: text, kind })
  }
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

function drawImage(page: PDFPage, image: PDFImage, field: TemplateField, kind: FieldKind, pageHeight: number) {
  const top = pageHeight - field.y
  if (kind === 'code128' || kind === 'ean13') {
    // Linear codes fill their box (bar width ratios are kept).
    page.drawImage(image, { x: field.x, y: top - field.height, width: field.width, height: field.height })
    return
  }
  const side = Math.min(field.width, field.height)
  const ratio = image.width / image.height
  const w = ratio >= 1 ? side : side * ratio
  const h = ratio >= 1 ? side / ratio : side
  page.drawImage(image, { x: field.x, y: top - h, width: w, height: h })
}

/**
 * One PDF with one copy of the template per document, in order. Throws 422 PRINT_VALUE_INVALID
 * when a barcode cannot carry its value (an EAN-13 of letters, a wrong check digit ...).
 */
export async function fillTemplate(template: FillTemplate, documents: readonly DocumentValues[]): Promise<Uint8Array> {
  const base = await PDFDocument.load(template.base, { updateMetadata: false })
  const out = await PDFDocument.create({ updateMetadata: false })
  const basePages = base.getPages()
  const embedded = await out.embedPages(basePages)
  const font = await out.embedFont(StandardFonts.Helvetica)
  const encodable = new Map<string, boolean>()
  const images = new Map<string, PDFImage>()
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
      let image = images.get(cacheKey)
      if (!image) {
        image = await out.embedPng(await barcodePng(field.kind, value, field.name))
        images.set(cacheKey, image)
      }
      drawImage(page, image, field, field.kind, pageHeight)
    }
  }
  return out.save()
}
