import { sql } from 'kysely'
import type { Services } from '../../context'

type DemoProduct = {
  code: string
  description: string
  tags: string[]
  notes?: string
  minimum_order?: number
  technical_batch?: number
  active?: boolean
  /** Custom metadata by form field name (demo fields of seed/demo/libraries.ts); left out when the field is missing. */
  metadata?: Record<string, unknown>
}

/** Demo finished products (with processes and boms from the process/bom seed) and their components. */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    code: 'PMP-100',
    description: 'Pompa idraulica PX100',
    tags: ['Linea A', 'Idraulica', 'Prodotto finito'],
    notes: 'Versione standard 230 V.\nCollaudo al 100% prima dell’imballo.',
    minimum_order: 10,
    technical_batch: 50,
    metadata: { 'Lotto componente': 'Serie 2026', 'Data di scadenza': '2027-12-31' },
  },
  {
    code: 'CTL-200',
    description: 'Centralina di controllo C200',
    tags: ['Linea B', 'Elettronica', 'Prodotto finito'],
    minimum_order: 5,
    technical_batch: 20,
  },
  { code: 'VLV-300', description: 'Gruppo valvola V300', tags: ['Linea A', 'Idraulica', 'Prodotto finito'], technical_batch: 100 },
  { code: 'PMP-090', description: 'Pompa idraulica PX90 (fuori produzione)', tags: ['Linea A', 'Idraulica'], active: false },
  { code: 'CMP-MOT-01', description: 'Motore elettrico 0,75 kW', tags: ['Componente', 'Elettronica'] },
  { code: 'CMP-PCB-02', description: 'Scheda elettronica principale', tags: ['Componente', 'Elettronica'] },
  { code: 'CMP-COR-03', description: 'Corpo pompa in alluminio', tags: ['Componente', 'Idraulica'] },
  { code: 'CMP-GUA-04', description: 'Kit guarnizioni NBR', tags: ['Componente'] },
  { code: 'CMP-VIT-05', description: 'Viteria M6 inox (confezione da 100)', tags: ['Componente', 'Minuteria'] },
  { code: 'CMP-CAV-06', description: 'Cablaggio 12 poli', tags: ['Componente', 'Elettronica'] },
  { code: 'ELP-400', description: 'Elettropompa EP400 (tracciata a seriale)', tags: ['Linea A', 'Idraulica', 'Prodotto finito'], technical_batch: 10 },
  { code: 'CMP-MOT-41', description: 'Motore elettrico 0,55 kW (per gruppo GM410)', tags: ['Componente', 'Elettronica'] },
  { code: 'GRM-410', description: 'Gruppo motore GM410 (sottoassieme numerato)', tags: ['Componente', 'Elettronica'] },
  { code: 'IMB-SCA-01', description: 'Scatola di imballo 40x30x30', tags: ['Imballo'] },
]

/**
 * Demo products with tags (and a little metadata). Idempotent: a product whose code exists (any
 * case) is left as it is, tags are found by name or created, links are added once. Runs before
 * the process/bom seed, which finds the products by code in the answer.
 * Returns the keys of every demo product by code.
 */
export async function seedDemoProducts(svc: Services): Promise<Record<string, string>> {
  const now = svc.clock.now()
  const fields = new Map(
    (await svc.db.selectFrom('form_fields').select(['id', 'name']).where('archived_at', 'is', null).execute()).map((f) => [f.name.toLowerCase(), f.id]),
  )
  const existing = new Set((await svc.db.selectFrom('products').select('code').execute()).map((p) => p.code.toLowerCase()))
  const missing = DEMO_PRODUCTS.filter((p) => !existing.has(p.code.toLowerCase()))
  if (missing.length) {
    await svc.db
      .insertInto('products')
      .values(
        missing.map((p) => ({
          code: p.code,
          description: p.description,
          notes: p.notes ?? '',
          minimum_order: p.minimum_order ?? null,
          technical_batch: p.technical_batch ?? null,
          active: p.active ?? true,
          metadata: JSON.stringify(
            Object.entries(p.metadata ?? {}).flatMap(([name, value]) => {
              const key = fields.get(name.toLowerCase())
              return key ? [{ custom_field_key: key, value }] : []
            }),
          ),
          print_templates: '[]',
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.expression(sql`lower(code)`).doNothing())
      .execute()
  }
  const rows = await svc.db
    .selectFrom('products')
    .select(['id', 'code'])
    .where(
      sql<string>`lower(code)`,
      'in',
      DEMO_PRODUCTS.map((p) => p.code.toLowerCase()),
    )
    .execute()
  const keys = Object.fromEntries(rows.map((r) => [r.code.toUpperCase(), r.id]))

  const tagNames = [...new Set(DEMO_PRODUCTS.flatMap((p) => p.tags))]
  await svc.db
    .insertInto('tags')
    .values(tagNames.map((name) => ({ name, created_at: now })))
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .execute()
  const tags = new Map(
    (await svc.db.selectFrom('tags').select(['id', 'name']).where(sql<string>`lower(name)`, 'in', tagNames.map((n) => n.toLowerCase())).execute()).map((t) => [
      t.name.toLowerCase(),
      t.id,
    ]),
  )
  // Tags only for products this seed created: a product someone changed keeps its own tags.
  const links = missing.flatMap((p) => {
    const key = keys[p.code.toUpperCase()]
    return key ? p.tags.flatMap((name) => (tags.has(name.toLowerCase()) ? [{ tag_id: tags.get(name.toLowerCase())!, context: 'product', context_key: key }] : [])) : []
  })
  if (links.length) await svc.db.insertInto('tag_links').values(links).onConflict((oc) => oc.doNothing()).execute()
  return Object.fromEntries(DEMO_PRODUCTS.flatMap((p) => (keys[p.code.toUpperCase()] ? [[p.code, keys[p.code.toUpperCase()]!]] : [])))
}
