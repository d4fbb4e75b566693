import { PDFDocument, popGraphicsState, pushGraphicsState } from '@pdfme/pdf-lib'

/** PDF points in a millimetre (72 points to the inch). */
const POINTS_PER_MM = 72 / 25.4

/** One blank page of `width_mm` x `height_mm`: the base of a label designed in the app. */
export async function blankLabelPdf(widthMm: number, heightMm: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.setTitle('Blank label')
  doc.setProducer('MES')
  const page = doc.addPage([widthMm * POINTS_PER_MM, heightMm * POINTS_PER_MM])
  // An empty content stream ("q Q"): a page with no Contents cannot be embedded when the label is filled.
  page.pushOperators(pushGraphicsState(), popGraphicsState())
  return doc.save()
}
