import type { MovementListDetail } from '../../../src/domains/missions/schemas'
import type { MovementStatus, MovementType } from '../../../src/domains/movements/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { PdfWriter } from '../../pdf/writer'

/**
 * A movement list on A4, made on the server so it can go to a plant printer as well as the
 * browser's print: in picking order, a box to tick per line, every column wrapping inside the page
 * (the status is never cut). Words in Italian or English, outside the client's catalogs as the
 * production record's are.
 */

export type SheetLanguage = 'it' | 'en'

const WORDS = {
  it: {
    title: 'Lista movimenti',
    kind: 'Tipo',
    kinds: { work_order: 'Prelievo per ordine di lavoro', day: 'Movimenti del giorno', mission: 'Missione' },
    createdBy: 'Creata da',
    createdAt: 'Creata il',
    lines: 'Righe',
    columns: ['', 'Da', 'Prodotto', 'Seriale', 'Quantità', 'A', 'Movimento', 'Stato'],
    types: { load: 'Carico', unload: 'Scarico', transfer: 'Trasferimento', production: 'Produzione', consumption: 'Consumo', adjustment: 'Rettifica' },
    statuses: { planned: 'Pianificato', confirmed: 'Confermato', cancelled: 'Annullato' },
    page: (n: number, of: number) => `Pagina ${n} di ${of}`,
  },
  en: {
    title: 'Movement list',
    kind: 'Kind',
    kinds: { work_order: 'Picking list of a work order', day: "The day's movements", mission: 'Mission' },
    createdBy: 'Made by',
    createdAt: 'Made on',
    lines: 'Lines',
    columns: ['', 'From', 'Product', 'Serial', 'Quantity', 'To', 'Movement', 'Status'],
    types: { load: 'Load', unload: 'Unload', transfer: 'Transfer', production: 'Production', consumption: 'Consumption', adjustment: 'Adjustment' },
    statuses: { planned: 'Planned', confirmed: 'Confirmed', cancelled: 'Cancelled' },
    page: (n: number, of: number) => `Page ${n} of ${of}`,
  },
} satisfies Record<SheetLanguage, { types: Record<MovementType, string>; statuses: Record<MovementStatus, string> } & Record<string, unknown>>

export const sheetTitle = (lang: SheetLanguage) => WORDS[lang].title

/** Points per column: 511 in all, the content width of A4 with the writer's margins. */
const WIDTHS = [20, 62, 150, 62, 50, 62, 55, 50]

export async function movementListSheet(list: MovementListDetail, lang: SheetLanguage): Promise<Uint8Array> {
  const w = WORDS[lang]
  const quantity = new Intl.NumberFormat(lang === 'it' ? 'it-IT' : 'en-GB', { maximumFractionDigits: 4, useGrouping: false })
  const pdf = await PdfWriter.create(`${w.title} ${list.code}`)
  pdf.heading(`${w.title} ${list.code}${list.title ? ` - ${list.title}` : ''}`)
  pdf.facts([
    [w.kind, `${w.kinds[list.kind]}${list.kind === 'work_order' ? ` ${list.work_order_code ?? ''}` : list.kind === 'day' ? ` ${list.day ?? ''}` : ''}`],
    [w.createdBy, list.created_by_name ?? ''],
    [w.createdAt, formatDateTime(list.created_at)],
    [w.lines, String(list.movements.length)],
  ])
  pdf.space()
  pdf.table(
    w.columns.map((title, i) => ({ title, width: WIDTHS[i]! })),
    list.movements.map((m) => [
      '[  ]',
      m.from_position_code ?? '-',
      `${m.product_code} ${m.product_description}`,
      m.serial ?? '',
      quantity.format(m.confirmed_quantity ?? m.planned_quantity),
      m.to_position_code ?? '-',
      `M-${m.number} ${w.types[m.type]}`,
      w.statuses[m.status],
    ]),
    9,
  )
  return pdf.finish(w.page)
}
