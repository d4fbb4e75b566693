import { beforeAll, describe, expect, test } from 'bun:test'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, signIn, userWithScope, useHarness } from '../../test/harness'
import { createOperation, eventsOf, insertProduct } from './test-helpers'

/** Issue 13 library configuration: a phase's traceability level and counter, a bom line's declared serials. */
describe('traceability of phases and bom lines', () => {
  const h = useHarness()
  let library: string
  let operation: string
  let counter: string
  let otherCounter: string

  /** Counters are another domain: inserted as rows. */
  const insertCounter = async (name: string) =>
    (await h.svc.db.insertInto('counters').values({ name, template: 'SN{YY}-{####}', frequency: 'year' }).returning('id').executeTakeFirstOrThrow()).id

  beforeAll(async () => {
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    library = (await userWithScope(h, 'lib.trace', 'library')).token
    operation = (await createOperation(h, admin, 'Assemblaggio'))._key
    counter = await insertCounter('Seriali motori')
    otherCounter = await insertCounter('Seriali telai')
  })
  const putProcess = (product: string, phases: unknown[]) => h.request('PUT', `/api/product/${product}/process`, { token: library, body: { phases } })
  const getProcess = async (product: string) => (await h.request('GET', `/api/product/${product}/process`, { token: library })).body.detail.phases

  test('a phase starts at none without counter; level and counter are saved, kept when not sent, changed, recorded, copied', async () => {
    const product = await insertProduct(h, 'TR-1')
    const created = await putProcess(product, [{ operation_key: operation, name: 'Taglio' }, { operation_key: operation, name: 'Montaggio', traceability_level: 'complete', counter_key: counter }])
    expect(created.status).toBe(200)
    const [cut, assembly] = created.body.detail.phases
    expect([cut.traceability_level, cut.counter_key, assembly.traceability_level, assembly.counter_key]).toEqual(['none', null, 'complete', counter])

    // Not sent: kept. Sent: changed (and listed in the event).
    const kept = await putProcess(product, [{ _key: cut._key, operation_key: operation, traceability_level: 'form' }, { _key: assembly._key, operation_key: operation }])
    expect(kept.body.detail.phases.map((p: any) => [p.traceability_level, p.counter_key])).toEqual([
      ['form', null],
      ['complete', counter],
    ])
    const changed = await putProcess(product, [{ _key: cut._key, operation_key: operation }, { _key: assembly._key, operation_key: operation, counter_key: otherCounter }])
    expect(changed.body.detail.phases.map((p: any) => p.counter_key)).toEqual([null, otherCounter])
    const updates = (await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product).map((e) => (e.data as any).updated.map((u: any) => u.changed))
    expect(updates.slice(1)).toEqual([[['traceability_level']], [['counter']]])
    const cleared = await putProcess(product, [{ _key: cut._key, operation_key: operation }, { _key: assembly._key, operation_key: operation, counter_key: null }])
    expect(cleared.body.detail.phases[1].counter_key).toBeNull()
    await putProcess(product, [{ _key: cut._key, operation_key: operation }, { _key: assembly._key, operation_key: operation, counter_key: counter }])

    // tRPC reads the same; a copy carries level and counter.
    const viaTrpc = await trpcCall(h, 'process.get', 'query', { key: product }, { token: library })
    expect(viaTrpc.body.result.data.phases.map((p: any) => [p.traceability_level, p.counter_key])).toEqual([
      ['form', null],
      ['complete', counter],
    ])
    const target = await insertProduct(h, 'TR-2')
    const copied = await h.request('POST', `/api/product/${target}/process/copy`, { token: library, body: { from_product_key: product } })
    expect(copied.status).toBe(200)
    expect(copied.body.detail.phases.map((p: any) => [p.name, p.traceability_level, p.counter_key])).toEqual([
      ['Taglio', 'form', null],
      ['Montaggio', 'complete', counter],
    ])
    expect(copied.body.detail.phases[1]._key).not.toBe(assembly._key)
  })

  test('the process editor offers the counters by name to the library only', async () => {
    const choices = await trpcCall(h, 'process.counterChoices', 'query', undefined, { token: library })
    expect(choices.body.result.data).toEqual([
      { _key: counter, name: 'Seriali motori', template: 'SN{YY}-{####}' },
      { _key: otherCounter, name: 'Seriali telai', template: 'SN{YY}-{####}' },
    ])
    const operator = (await userWithScope(h, 'op.trace', 'operator')).token
    expect((await trpcCall(h, 'process.counterChoices', 'query', undefined, { token: operator })).status).toBe(403)
  })

  test('refused: unknown counter (422), bad level or key (400); nothing is written', async () => {
    const product = await insertProduct(h, 'TR-3')
    const phase = (await putProcess(product, [{ operation_key: operation }])).body.detail.phases[0]
    const before = await tableCounts(h)
    const cases: [unknown, number, string][] = [
      [{ _key: phase._key, operation_key: operation, counter_key: MISSING_UUID }, 422, 'UNKNOWN_COUNTER'],
      [{ operation_key: operation, counter_key: MISSING_UUID }, 422, 'UNKNOWN_COUNTER'],
      [{ _key: phase._key, operation_key: operation, counter_key: 'SN-1' }, 400, 'INVALID_INPUT'],
      [{ _key: phase._key, operation_key: operation, traceability_level: 'form_only' }, 400, 'INVALID_INPUT'],
      [{ _key: phase._key, operation_key: operation, traceability_level: null }, 400, 'INVALID_INPUT'],
    ]
    for (const [p, status, code] of cases) {
      const res = await putProcess(product, [p])
      expect({ p, status: res.status, code: appCode(res.body) }).toEqual({ p, status, code })
    }
    const trpc = await trpcCall(h, 'process.update', 'mutation', { key: product, phases: [{ _key: phase._key, operation_key: operation, counter_key: MISSING_UUID }] }, { token: library })
    expect({ status: trpc.status, code: appCode(trpc.body) }).toEqual({ status: 422, code: 'UNKNOWN_COUNTER' })
    expect(await tableCounts(h)).toEqual(before)
    expect((await getProcess(product)).map((p: any) => [p.traceability_level, p.counter_key])).toEqual([['none', null]])
  })

  test('a counter a phase uses cannot be deleted (409 COUNTER_IN_USE); once free it can', async () => {
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const used = await insertCounter('Seriali quadri')
    const product = await insertProduct(h, 'TR-5')
    const [phase] = (await putProcess(product, [{ operation_key: operation, counter_key: used }])).body.detail.phases
    const refused = await h.request('DELETE', `/api/counter/${used}`, { token: admin })
    expect({ status: refused.status, code: appCode(refused.body) }).toEqual({ status: 409, code: 'COUNTER_IN_USE' })
    expect((await getProcess(product))[0].counter_key).toBe(used)
    await putProcess(product, [{ _key: phase._key, operation_key: operation, counter_key: null }])
    expect((await h.request('DELETE', `/api/counter/${used}`, { token: admin })).status).toBe(200)
  })

  test('a bom line says whether the serials of its component must be declared (default false); changes are recorded', async () => {
    const product = await insertProduct(h, 'TR-4')
    const [phase] = (await putProcess(product, [{ operation_key: operation }])).body.detail.phases
    const engine = await insertProduct(h, 'MOTORE')
    const screw = await insertProduct(h, 'VITE')
    const line = (item_key: string, extra: object = {}) => ({ phase_key: phase._key, item_key, quantity: 1, quantity_per: 'item', ...extra })
    const put = (lines: unknown[]) => h.request('PUT', `/api/product/${product}/bom`, { token: library, body: { lines } })

    const saved = await put([line(engine, { traceability: 'complete', declared_serials: true }), line(screw)])
    expect(saved.status).toBe(200)
    expect(saved.body.detail.lines.map((l: any) => [l.item_code, l.declared_serials])).toEqual([
      ['MOTORE', true],
      ['VITE', false],
    ])
    const read = await trpcCall(h, 'bom.get', 'query', { key: product }, { token: library })
    expect(read.body.result.data.lines.map((l: any) => l.declared_serials)).toEqual([true, false])

    const off = await put([line(engine, { traceability: 'complete', declared_serials: false }), line(screw)])
    expect(off.body.detail.lines.map((l: any) => l.declared_serials)).toEqual([false, false])
    const last = (await eventsOf(h, 'BOM_UPDATED')).filter((e) => e.subject_key === product).at(-1)!
    expect((last.data as any).changed.map((c: any) => [c.item_code, c.changed])).toEqual([['MOTORE', ['declared_serials']]])

    const bad = await put([line(engine, { declared_serials: 'yes' })])
    expect({ status: bad.status, code: appCode(bad.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
  })
})
