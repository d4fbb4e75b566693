import { PDFDocument } from '@pdfme/pdf-lib'

/** PDF points in a millimetre (72 points to the inch). */
const POINTS_PER_MM = 72 / 25.4

/** One blank page of `width_mm` x `height_mm`: the base of a label designed in the app. */
export async function blankLabelPdf(widthMm: number, heightMm: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.setTitle('Blank label')
  doc.setProducer('MES')
  doc.addPage([widthMm * POINTS_PER_MM, heightMm * POINTS_PER_MM])
  return doc.save()
}
