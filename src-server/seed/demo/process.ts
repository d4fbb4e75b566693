import { sql } from 'kysely'
import type { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import type { BomLineInput, QuantityPer, TraceabilityLevel } from '../../../src/domains/products/bom'
import type { Actor, Services } from '../../context'
import { updateBom } from '../../domains/bom/service'
import { updateProcess } from '../../domains/process/service'
import { addStepMedia } from '../../domains/process/step-media'
import { release } from '../../domains/revisions/service'
import { getDefaultPhaseParameters } from '../../domains/settings/service'
import { pngBytes } from '../../test/png'

type DemoPhase = {
  /** A demo operation by name (seed/demo/libraries.ts): its default steps are copied. */
  operation: string
  name?: string
  /** A demo department code (seed/demo/departments.ts). */
  department?: string
  parameters?: Partial<PhaseParameters>
  notes?: string
  /** Files attached to the phase's first instruction step. */
  media?: ('schema' | 'istruzioni')[]
}
type DemoLine = { phase: number; item: string; quantity: number; per: QuantityPer; traceability?: TraceabilityLevel }

/** Processes (two or three phases) and boms of the finished demo products (seed/demo/products.ts). */
export const DEMO_PROCESSES: { product: string; phases: DemoPhase[]; bom: DemoLine[] }[] = [
  {
    product: 'PMP-100',
    phases: [
      {
        operation: 'Montaggio',
        name: 'Montaggio pompa',
        department: 'ASM',
        parameters: { std_processing_time: 420, production_batch_qt: 5 },
        notes: 'Coppia di serraggio delle viti del corpo: 12 Nm.\nUsare il banco 1.',
        media: ['schema', 'istruzioni'],
      },
      // No step checks: the tester completes the whole batch at once and records the scrap.
      {
        operation: 'Collaudo',
        name: 'Collaudo funzionale',
        department: 'COL',
        parameters: { std_processing_time: 180, production_batch_qt: 5, release_style: 'release_batch', release_batch_qt: 10, step_check: false },
      },
      { operation: 'Imballaggio', department: 'IMB', parameters: { std_processing_time: 60, release_style: 'job' } },
    ],
    bom: [
      { phase: 0, item: 'CMP-COR-03', quantity: 1, per: 'item', traceability: 'form' },
      { phase: 0, item: 'CMP-MOT-01', quantity: 1, per: 'item', traceability: 'complete' },
      { phase: 0, item: 'CMP-GUA-04', quantity: 1, per: 'item' },
      { phase: 0, item: 'CMP-VIT-05', quantity: 0.08, per: 'item' },
      { phase: 2, item: 'IMB-SCA-01', quantity: 1, per: 'item' },
    ],
  },
  {
    product: 'CTL-200',
    phases: [
      { operation: 'Montaggio', name: 'Montaggio scheda', department: 'ASM', parameters: { std_processing_time: 300, production_batch_qt: 2 }, media: ['schema'] },
      { operation: 'Collaudo', department: 'COL', parameters: { std_processing_time: 240, production_batch_qt: 4, step_check_force_order: true } },
    ],
    bom: [
      { phase: 0, item: 'CMP-PCB-02', quantity: 1, per: 'item', traceability: 'complete' },
      { phase: 0, item: 'CMP-CAV-06', quantity: 1, per: 'item', traceability: 'form' },
      { phase: 0, item: 'CMP-VIT-05', quantity: 0.04, per: 'item' },
    ],
  },
  {
    product: 'VLV-300',
    phases: [
      { operation: 'Montaggio', name: 'Montaggio valvola', department: 'ASM', parameters: { std_processing_time: 150, production_batch_qt: 25 } },
      { operation: 'Imballaggio', department: 'IMB', parameters: { std_processing_time: 30 } },
    ],
    bom: [
      { phase: 0, item: 'CMP-GUA-04', quantity: 2, per: 'item' },
      { phase: 0, item: 'CMP-VIT-05', quantity: 1, per: 'job' },
      { phase: 1, item: 'IMB-SCA-01', quantity: 1, per: 'item' },
    ],
  },
]

/** A one-page PDF with a line of text (a real document viewers open). */
function demoPdf(text: string): Uint8Array {
  const content = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]
  let pdf = '%PDF-1.4\n'
  const offsets: number[] = []
  for (const [i, body] of objects.entries()) {
    offsets.push(pdf.length)
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`
  }
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(pdf)
}

const demoFile = (kind: 'schema' | 'istruzioni', product: string) =>
  kind === 'schema'
    ? new File([pngBytes(480, 320, [38, 140, 130])], `Schema ${product}.png`, { type: 'image/png' })
    : new File([new Uint8Array(demoPdf(`Istruzioni di montaggio ${product}`))], `Istruzioni ${product}.pdf`, { type: 'application/pdf' })

/**
 * Processes, step media and boms of the demo products, through the library's own services (so
 * every rule holds and events are recorded). Idempotent: a product that already has phases keeps
 * its process, one that already has bom lines keeps its bom; missing operations, departments or
 * components are left out. Runs after the products seed (`products`: keys by code).
 * Returns what it created.
 */
export async function seedDemoProcesses(svc: Services, products: Record<string, string>): Promise<string[]> {
  const user =
    (await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'libreria').executeTakeFirst()) ??
    (await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'admin').executeTakeFirst())
  if (!user) return []
  const actor: Actor = { userId: user.id, sessionId: null, scope: user.scope, tokenId: null }
  const operations = new Map((await svc.db.selectFrom('operations').select(['id', 'name']).execute()).map((o) => [o.name.toLowerCase(), o.id]))
  const departments = new Map((await svc.db.selectFrom('departments').select(['id', 'code']).execute()).map((d) => [d.code.toUpperCase(), d.id]))
  const defaults = await getDefaultPhaseParameters(svc)
  const created: string[] = []

  for (const demo of DEMO_PROCESSES) {
    const productKey = products[demo.product]
    if (!productKey) continue
    const counts = await svc.db
      .selectFrom('products as p')
      .select([
        sql<number>`(select count(*)::int from product_phases pp where pp.product_id = p.id and pp.revision_id is null)`.as('phases'),
        sql<number>`(select count(*)::int from bom_lines b where b.product_id = p.id and b.revision_id is null)`.as('lines'),
        sql<number>`(select count(*)::int from product_revisions r where r.product_id = p.id)`.as('revisions'),
      ])
      .where('p.id', '=', productKey)
      .where('p.trashed_at', 'is', null)
      .executeTakeFirst()
    if (!counts) continue

    let phaseKeys: (string | undefined)[] = []
    if (counts.phases === 0) {
      const usable = demo.phases.filter((p) => operations.has(p.operation.toLowerCase()))
      if (usable.length === 0) continue
      const process = await updateProcess(svc, actor, productKey, {
        phases: usable.map((p) => ({
          operation_key: operations.get(p.operation.toLowerCase())!,
          name: p.name,
          department_key: (p.department && departments.get(p.department)) || null,
          parameters: { ...defaults, ...p.parameters },
          production_notes: p.notes,
        })),
      })
      for (const [i, p] of usable.entries()) {
        const step = process.phases[i]?.steps.find((s) => s.type === 'instruction')
        if (!step) continue
        for (const kind of p.media ?? []) await addStepMedia(svc, actor, step._key, demoFile(kind, demo.product))
      }
      phaseKeys = demo.phases.map((p) => {
        const i = usable.indexOf(p)
        return i >= 0 ? process.phases[i]?._key : undefined
      })
      created.push(`process of ${demo.product} (${usable.length} phases)`)
    } else if (counts.lines > 0) {
      if (counts.revisions === 0) await releaseDemo(svc, actor, productKey, demo.product, created)
      continue
    } else {
      // A process made by hand: the bom follows it only if it still has the demo's phases in order.
      const phases = await svc.db.selectFrom('product_phases').select('id').where('product_id', '=', productKey).where('revision_id', 'is', null).orderBy('position').orderBy('id').execute()
      if (phases.length !== demo.phases.length) continue
      phaseKeys = phases.map((p) => p.id)
    }

    if (counts.lines === 0) {
      const lines: BomLineInput[] = demo.bom.flatMap((l) => {
        const phase_key = phaseKeys[l.phase]
        const item_key = products[l.item]
        return phase_key && item_key ? [{ phase_key, item_key, quantity: l.quantity, quantity_per: l.per, traceability: l.traceability ?? 'none' }] : []
      })
      if (lines.length) {
        await updateBom(svc, actor, productKey, { lines })
        created.push(`bom of ${demo.product} (${lines.length} lines)`)
      }
    }
    if (counts.revisions === 0) await releaseDemo(svc, actor, productKey, demo.product, created)
  }
  return created
}

/** Work orders are made from released revisions: the demo process and bom become revision 1. */
async function releaseDemo(svc: Services, actor: Actor, productKey: string, code: string, created: string[]) {
  await release(svc, actor, productKey, { reason: 'Revisione iniziale (dati dimostrativi)' })
  created.push(`revision 1 of ${code}`)
}
