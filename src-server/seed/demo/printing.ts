import { PDFDocument, rgb, StandardFonts } from '@pdfme/pdf-lib'
import type { TemplateField } from '../../../src/domains/printing/schemas'
import type { Actor, Services } from '../../context'
import { createTemplate, updateAssignments } from '../../domains/print-templates/service'
import { createPrinter } from '../../domains/printers/service'
import { DEMO_COMPANY_NAME } from './departments'
import { TRACED } from './traced'

/** A 100 x 50 mm label, in PDF points. */
const WIDTH = 283.46
const HEIGHT = 141.73

/**
 * The base of every demo label, drawn at seed time with the printing stack's own PDF library: a
 * frame, the company name and a caption; the fields are placed over it by the template.
 */
async function labelBase(caption: string): Promise<File> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([WIDTH, HEIGHT])
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  page.drawRectangle({ x: 4, y: 4, width: WIDTH - 8, height: HEIGHT - 8, borderColor: rgb(0, 0, 0), borderWidth: 1 })
  page.drawText(DEMO_COMPANY_NAME, { x: 10, y: HEIGHT - 18, size: 8, font: bold })
  page.drawText(caption, { x: 10, y: 10, size: 7, font: regular, color: rgb(0.3, 0.3, 0.3) })
  return new File([new Uint8Array(await pdf.save())], `${caption}.pdf`, { type: 'application/pdf' })
}

const text = (name: string, link: string, x: number, y: number, width: number, height: number, font_size: number): TemplateField => ({
  name,
  kind: 'text',
  link_type: 'preset',
  link,
  page: 1,
  x,
  y,
  width,
  height,
  font_size,
})
const code = (kind: TemplateField['kind'], link: string, x: number, y: number, width: number, height: number): TemplateField => ({
  ...text(`${link} (${kind})`, link, x, y, width, height, 10),
  kind,
})

/** The demo labels and where they are assigned (SPEC 3: settings' product and position labels, a phase's templates). */
const LABELS: { name: string; caption: string; fields: TemplateField[]; assign: 'product_label' | 'position_label' | 'serial_phase' }[] = [
  {
    name: 'Etichetta prodotto 100x50',
    caption: 'Etichetta prodotto',
    fields: [text('Codice', 'product_code', 10, 95, 170, 22, 18), text('Descrizione', 'product_description', 10, 70, 260, 16, 9), code('code128', 'product_code', 10, 22, 180, 40)],
    assign: 'product_label',
  },
  {
    name: 'Etichetta posizione 100x50',
    caption: 'Etichetta posizione di magazzino',
    fields: [text('Posizione', 'position_code', 10, 90, 170, 28, 24), code('code128', 'position_code', 10, 22, 200, 55)],
    assign: 'position_label',
  },
  {
    name: 'Etichetta seriale 100x50',
    caption: 'Etichetta seriale',
    fields: [
      text('Prodotto', 'product_code', 10, 100, 170, 16, 12),
      text('Seriale', 'serial_code', 10, 75, 170, 20, 16),
      text('Data', 'today', 10, 22, 120, 12, 8),
      code('datamatrix', 'serial_code', 195, 25, 80, 80),
    ],
    assign: 'serial_phase',
  },
]

/**
 * Demo labels (product, position, serial) on bases made here, assigned where SPEC 3 puts them:
 * the settings' product and position labels, and the serial label on the traced pump's
 * serialising phase; and a network printer entry. Only into a plant without templates; skips
 * without an admin.
 */
export async function seedDemoPrinting(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('print_templates').select('id').limit(1).executeTakeFirst()) return []
  const admin = await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'admin').executeTakeFirst()
  if (!admin) return []
  const actor: Actor = { userId: admin.id, sessionId: null, scope: admin.scope, tokenId: null }
  const serialPhase = await svc.db
    .selectFrom('product_phases as ph')
    .innerJoin('products as p', 'p.id', 'ph.product_id')
    .select('ph.id')
    .where('p.code', '=', TRACED.pump)
    .where('ph.traceability_level', '=', 'complete')
    .orderBy('ph.revision_id', (ob) => ob.desc().nullsLast())
    .limit(1)
    .executeTakeFirst()
  const created: string[] = []
  const items: { type: 'add'; context: 'settings' | 'phase'; context_key: string; template_key: string }[] = []
  for (const label of LABELS) {
    const template = await createTemplate(svc, actor, { name: label.name, base_pdf: await labelBase(label.caption), fields: JSON.stringify(label.fields) })
    created.push(label.name)
    if (label.assign === 'serial_phase') {
      if (serialPhase) items.push({ type: 'add', context: 'phase', context_key: serialPhase.id, template_key: template._key })
    } else {
      items.push({ type: 'add', context: 'settings', context_key: label.assign, template_key: template._key })
    }
  }
  await updateAssignments(svc, actor, { items })
  // A label printer on the plant network (the demo has none: a print to it reports it unreachable).
  await createPrinter(svc, actor, { name: 'Zebra bordo linea 1', host: 'zebra-linea1.local', protocol: 'ipp', port: 631, path: '/ipp/print' })
  created.push('printer Zebra bordo linea 1')
  return created
}
