import { describe, expect, test } from 'bun:test'
import { listProducts } from '../../domains/products/service'
import { useHarness } from '../../test/harness'
import { seedDemoLibraries } from './libraries'
import { DEMO_PRODUCTS, seedDemoProducts } from './products'

describe('demo products seed', () => {
  const h = useHarness()

  test('creates the products with their tags once; keys by code; running again changes nothing', async () => {
    await seedDemoLibraries(h.svc)
    const keys = await seedDemoProducts(h.svc)
    expect(Object.keys(keys).sort()).toEqual(DEMO_PRODUCTS.map((p) => p.code).sort())
    const count = async (table: 'products' | 'tags' | 'tag_links') =>
      Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const before = { products: await count('products'), tags: await count('tags'), links: await count('tag_links') }
    expect(before.products).toBe(DEMO_PRODUCTS.length)
    expect(await seedDemoProducts(h.svc)).toEqual(keys)
    expect({ products: await count('products'), tags: await count('tags'), links: await count('tag_links') }).toEqual(before)

    const pump = await listProducts(h.svc, { search: 'PMP-100' })
    expect(pump.rows[0]!.tags.map((t) => t.name)).toEqual(['Idraulica', 'Linea A', 'Prodotto finito'])
    expect((await listProducts(h.svc, { state: 'inactive' })).rows.map((r) => r.code)).toEqual(['PMP-090'])
    const row = await h.svc.db.selectFrom('products').select('metadata').where('code', '=', 'PMP-100').executeTakeFirstOrThrow()
    expect(row.metadata.map((m) => m.value)).toEqual(['Serie 2026', '2027-12-31'])
  })
})
