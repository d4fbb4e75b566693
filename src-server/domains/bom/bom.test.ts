import { beforeAll, describe, expect, test } from 'bun:test'
import { bomLineProblems } from '../../../src/domains/products/bom'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, signIn, userWithScope, useHarness } from '../../test/harness'
import { createOperation, eventsOf, insertProduct } from '../process/test-helpers'

describe('bill of materials', () => {
  const h = useHarness()
  let library: string
  let operation: string

  beforeAll(async () => {
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    library = (await userWithScope(h, 'lib.bom', 'library')).token
    operation = (await createOperation(h, admin, 'Montaggio'))._key
  })

  /** A product with `n` phases; returns its key and phase keys. */
  async function productWithPhases(code: string, n = 2) {
    const key = await insertProduct(h, code)
    const res = await h.request('PUT', `/api/product/${key}/process`, {
      token: library,
      body: { phases: Array.from({ length: n }, (_, i) => ({ operation_key: operation, name: `Fase ${i + 1}` })) },
    })
    expect(res.status).toBe(200)
    return { key, phases: res.body.detail.phases.map((p: { _key: string }) => p._key) as string[] }
  }
  const put = (product: string, lines: unknown[], token = library) => h.request('PUT', `/api/product/${product}/bom`, { token, body: { lines } })
  const get = (product: string, token = library) => h.request('GET', `/api/product/${product}/bom`, { token })
  const line = (phase_key: string, item_key: string, quantity = 1, quantity_per = 'item', traceability?: string) => ({
    phase_key,
    item_key,
    quantity,
    quantity_per,
    ...(traceability ? { traceability } : {}),
  })

  test('lines per phase are saved and read back in phase order with the component codes; keys stay; events', async () => {
    const { key, phases } = await productWithPhases('B-MAIN')
    const screw = await insertProduct(h, 'VITE-M4', { description: 'Vite M4x10' })
    const nut = await insertProduct(h, 'DADO-M4')
    expect((await get(key)).body.detail).toEqual({ product_key: key, lines: [] })

    const res = await put(key, [line(phases[1]!, nut, 1, 'job'), line(phases[0]!, screw, 4.25, 'item', 'complete'), line(phases[1]!, screw, 2, 'batch', 'form')])
    expect(res.status).toBe(200)
    const lines = res.body.detail.lines
    expect(lines.map((l: any) => [l.phase_key, l.item_code, l.quantity, l.quantity_per, l.traceability])).toEqual([
      [phases[0], 'VITE-M4', 4.25, 'item', 'complete'],
      [phases[1], 'DADO-M4', 1, 'job', 'none'],
      [phases[1], 'VITE-M4', 2, 'batch', 'form'],
    ])
    expect(lines[0]).toMatchObject({ item_key: screw, item_description: 'Vite M4x10', item_active: true, _key: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect((await get(key)).body.detail).toEqual(res.body.detail)
    const process = await h.request('GET', `/api/product/${key}/process`, { token: library })
    expect(process.body.detail.phases.map((p: { component_count: number }) => p.component_count)).toEqual([1, 2])

    // Same phase and item: same line key; a changed quantity is recorded.
    const again = await put(key, [line(phases[0]!, screw, 5, 'item', 'complete'), line(phases[1]!, screw, 2, 'batch', 'form')])
    expect(again.body.detail.lines.map((l: any) => l._key)).toEqual([lines[0]._key, lines[2]._key])
    const events = (await eventsOf(h, 'BOM_UPDATED')).filter((e) => e.subject_key === key)
    expect(events).toHaveLength(2)
    expect(events[0]!.data).toMatchObject({ code: 'B-MAIN', lines: 3, removed: [], changed: [] })
    expect((events[0]!.data as any).added).toHaveLength(3)
    expect(events[1]!.data).toMatchObject({
      added: [],
      removed: [{ item_code: 'DADO-M4', phase_key: phases[1] }],
      changed: [{ item_code: 'VITE-M4', quantity: 5, changed: ['quantity'] }],
    })
    // Nothing changed: no event.
    await put(key, [line(phases[0]!, screw, 5, 'item', 'complete'), line(phases[1]!, screw, 2, 'batch', 'form')])
    expect((await eventsOf(h, 'BOM_UPDATED')).filter((e) => e.subject_key === key)).toHaveLength(2)
    // A new order within the phase is kept and recorded.
    const screw2 = await insertProduct(h, 'VITE-M5')
    await put(key, [line(phases[0]!, screw, 5, 'item', 'complete'), line(phases[0]!, screw2, 1)])
    const swapped = await put(key, [line(phases[0]!, screw2, 1), line(phases[0]!, screw, 5, 'item', 'complete')])
    expect(swapped.body.detail.lines.map((l: any) => l.item_code)).toEqual(['VITE-M5', 'VITE-M4'])
    expect((await eventsOf(h, 'BOM_UPDATED')).at(-1)!.data).toMatchObject({ added: [], removed: [], changed: [], reordered: true })
    expect((await put(key, [])).body.detail.lines).toEqual([])
  })

  test('quantity must be positive', async () => {
    const { key, phases } = await productWithPhases('B-QTY')
    const item = await insertProduct(h, 'B-QTY-ITEM')
    const before = await tableCounts(h)
    for (const quantity of [0, -1, -0.5]) {
      const res = await put(key, [line(phases[0]!, item, quantity)])
      expect({ quantity, status: res.status, code: appCode(res.body), message: res.body.detail.message, line: res.body.detail.line }).toEqual({
        quantity,
        status: 400,
        code: 'BOM_QUANTITY_NOT_POSITIVE',
        message: 'line 1: quantity must be positive',
        line: 0,
      })
    }
    const second = await put(key, [line(phases[0]!, item, 1), line(phases[1]!, item, 0)])
    expect(second.body.detail).toMatchObject({ code: 'BOM_QUANTITY_NOT_POSITIVE', line: 1, lines: [1] })
    const text = await put(key, [{ ...line(phases[0]!, item), quantity: '2' }])
    expect(appCode(text.body)).toBe('INVALID_INPUT')
    expect(await tableCounts(h)).toEqual(before)
    expect((await put(key, [line(phases[0]!, item, 0.0001)])).body.detail.lines[0].quantity).toBe(0.0001)
  })

  test('more than 4 decimals are refused, never rounded; 4 are kept as given', async () => {
    const { key, phases } = await productWithPhases('B-DEC')
    const item = await insertProduct(h, 'B-DEC-ITEM')
    const before = await tableCounts(h)
    for (const quantity of [1.23456, 0.00001, 1e-7]) {
      const res = await put(key, [line(phases[0]!, item, 1), line(phases[1]!, item, quantity)])
      expect({ quantity, status: res.status, detail: res.body.detail }).toEqual({
        quantity,
        status: 400,
        detail: {
          code: 'INVALID_INPUT',
          message: 'lines.1.quantity: at most 4 decimals',
          line: 1,
          lines: [1],
          issues: [{ path: 'lines.1.quantity', kind: 'max_decimals', limit: 4, message: 'at most 4 decimals' }],
        },
      })
    }
    const trpc = await trpcCall(h, 'bom.update', 'mutation', { key, lines: [line(phases[0]!, item, 2.00005)] }, { token: library })
    expect(trpc.status).toBe(400)
    expect(trpc.body.error.data.extra.issues).toEqual([{ path: 'lines.0.quantity', kind: 'max_decimals', limit: 4, message: 'at most 4 decimals' }])
    expect(await tableCounts(h)).toEqual(before)
    expect((await put(key, [line(phases[0]!, item, 1.2345)])).body.detail.lines[0].quantity).toBe(1.2345)
    expect((await put(key, [line(phases[0]!, item, 12345.5)])).body.detail.lines[0].quantity).toBe(12345.5)
  })

  test('an item cannot repeat in a phase; in another phase it may', async () => {
    const { key, phases } = await productWithPhases('B-REP')
    const item = await insertProduct(h, 'B-REP-ITEM')
    const other = await insertProduct(h, 'B-REP-OTHER')
    const before = await tableCounts(h)
    const res = await put(key, [line(phases[0]!, item), line(phases[0]!, other), line(phases[0]!, item, 3, 'job')])
    expect(res.status).toBe(400)
    expect(res.body.detail).toMatchObject({ code: 'BOM_ITEM_REPEATED', message: 'line 3: an item cannot repeat in a phase', line: 2 })
    expect(await tableCounts(h)).toEqual(before)
    expect((await put(key, [line(phases[0]!, item), line(phases[1]!, item)])).status).toBe(200)
  })

  test('a product cannot contain itself, directly or through its components (422 BOM_CYCLE)', async () => {
    const a = await productWithPhases('B-CYC-A', 1)
    const b = await productWithPhases('B-CYC-B', 1)
    const c = await productWithPhases('B-CYC-C', 1)
    const self = await put(a.key, [line(a.phases[0]!, a.key)])
    expect(self.status).toBe(422)
    expect(self.body.detail).toMatchObject({ code: 'BOM_CYCLE', message: 'line 1: a product cannot be a component of itself', line: 0 })
    expect((await put(a.key, [line(a.phases[0]!, b.key)])).status).toBe(200) // A contains B
    expect((await put(b.key, [line(b.phases[0]!, c.key)])).status).toBe(200) // B contains C
    const before = await tableCounts(h)
    const direct = await put(b.key, [line(b.phases[0]!, c.key), line(b.phases[0]!, a.key)])
    expect(direct.status).toBe(422)
    expect(direct.body.detail).toMatchObject({ code: 'BOM_CYCLE', items: [a.key], line: 1 })
    expect(direct.body.detail.message).toBe('the product would contain itself through its components (B-CYC-A)')
    const deep = await put(c.key, [line(c.phases[0]!, a.key)])
    expect(deep.status).toBe(422)
    expect(appCode(deep.body)).toBe('BOM_CYCLE')
    expect(await tableCounts(h)).toEqual(before)
    // A shared component (diamond) is not a cycle.
    const d = await insertProduct(h, 'B-CYC-D')
    expect((await put(a.key, [line(a.phases[0]!, b.key), line(a.phases[0]!, d)])).status).toBe(200)
    expect((await put(b.key, [line(b.phases[0]!, c.key), line(b.phases[0]!, d)])).status).toBe(200)
  })

  test('unknown phase and item; inactive or trashed items only where the bom already had them', async () => {
    const { key, phases } = await productWithPhases('B-REF')
    const other = await productWithPhases('B-REF-OTHER', 1)
    const item = await insertProduct(h, 'B-REF-ITEM')
    const inactive = await insertProduct(h, 'B-REF-OFF', { active: false })
    const trashed = await insertProduct(h, 'B-REF-TRASH', { trashed: true })
    const before = await tableCounts(h)
    const cases: [unknown, number, string][] = [
      [line(other.phases[0]!, item), 422, 'UNKNOWN_PHASE'],
      [line(MISSING_UUID, item), 422, 'UNKNOWN_PHASE'],
      [line(phases[0]!, MISSING_UUID), 422, 'UNKNOWN_PRODUCT'],
      [line(phases[0]!, inactive), 422, 'BOM_ITEM_INACTIVE'],
      [line(phases[0]!, trashed), 422, 'BOM_ITEM_INACTIVE'],
      [{ ...line(phases[0]!, item), quantity_per: 'piece' }, 400, 'INVALID_INPUT'],
      [{ ...line(phases[0]!, item), traceability: 'full' }, 400, 'INVALID_INPUT'],
      [{ ...line(phases[0]!, item), phase_key: 'fase-1' }, 400, 'INVALID_INPUT'],
    ]
    for (const [l, status, code] of cases) {
      const res = await put(key, [l])
      expect({ l, status: res.status, code: appCode(res.body) }).toEqual({ l, status, code })
    }
    expect((await put(MISSING_UUID, [])).status).toBe(404)
    expect(await tableCounts(h)).toEqual(before)

    // An item deactivated after it was added stays (and shows as inactive).
    expect((await put(key, [line(phases[0]!, item)])).status).toBe(200)
    await h.svc.db.updateTable('products').set({ active: false }).where('id', '=', item).execute()
    const kept = await put(key, [line(phases[0]!, item, 3), line(phases[1]!, item, 1)])
    expect(kept.status).toBe(200)
    expect(kept.body.detail.lines.map((l: any) => l.item_active)).toEqual([false, false])
  })

  test('permissions and tRPC: library writes, readers read', async () => {
    const { key, phases } = await productWithPhases('B-PERM', 1)
    const item = await insertProduct(h, 'B-PERM-ITEM')
    const { token: production } = await userWithScope(h, 'prod.bom', 'production')
    expect((await get(key, production)).status).toBe(200)
    expect((await put(key, [], production)).status).toBe(403)
    const res = await trpcCall(h, 'bom.update', 'mutation', { key, lines: [line(phases[0]!, item, 2)] }, { token: library })
    expect(res.status).toBe(200)
    const read = await trpcCall(h, 'bom.get', 'query', { key }, { token: production })
    expect(read.body.result.data.lines.map((l: any) => l.item_code)).toEqual(['B-PERM-ITEM'])
    const refused = await trpcCall(h, 'bom.update', 'mutation', { key, lines: [] }, { token: production })
    expect(refused.status).toBe(403)
  })
})

describe('bom line rules shared with the client', () => {
  test('non-positive quantities and repeated items, line by line', () => {
    expect(
      bomLineProblems([
        { phase_key: 'a', item_key: 'x', quantity: 1 },
        { phase_key: 'a', item_key: 'y', quantity: 0 },
        { phase_key: 'b', item_key: 'x', quantity: 1 },
        { phase_key: 'a', item_key: 'x', quantity: -2 },
        { phase_key: 'a', item_key: '', quantity: null },
        { phase_key: 'a', item_key: '', quantity: 1 },
      ]),
    ).toEqual([
      { index: 1, code: 'BOM_QUANTITY_NOT_POSITIVE' },
      { index: 3, code: 'BOM_QUANTITY_NOT_POSITIVE' },
      { index: 3, code: 'BOM_ITEM_REPEATED' },
      { index: 4, code: 'BOM_QUANTITY_NOT_POSITIVE' },
    ])
  })
})
