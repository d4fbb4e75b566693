import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { adminToken, appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'

describe('tags', () => {
  const h = useHarness()
  let lib: string
  let product: string
  let other: string

  beforeAll(async () => {
    lib = (await userWithScope(h, 'lib', 'library')).token
    product = (await h.request('POST', '/api/product', { token: lib, body: { code: 'TAG-1' } })).body.detail._key
    other = (await h.request('POST', '/api/product', { token: lib, body: { code: 'TAG-2' } })).body.detail._key
  })

  const connect = (body: Record<string, unknown>) => h.request('POST', '/api/tag/update-connections', { token: lib, body: { context: 'product', ...body } })
  const tagsOf = async (key: string) => (await h.request('GET', `/api/tag?context=product&context_key=${key}`, { token: lib })).body.detail
  const events = (type: string) => h.svc.db.selectFrom('events').select(['subject_type', 'subject_key', 'data']).where('event_type', '=', type).orderBy('id').execute()

  test('add by name creates the tag once (any case); add by key; the item answers its tags by name', async () => {
    let res = await connect({ type: 'add', context_key: product, tag_name: ' Linea A ' })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual([{ _key: expect.any(String), name: 'Linea A' }])
    const lineaA = res.body.detail[0]._key
    res = await connect({ type: 'add', context_key: product, tag_name: 'Elettronica' })
    expect(res.body.detail.map((t: { name: string }) => t.name)).toEqual(['Elettronica', 'Linea A'])
    // Same name in another case: the existing tag, no new one.
    res = await connect({ type: 'add', context_key: other, tag_name: 'linea a' })
    expect(res.body.detail).toEqual([{ _key: lineaA, name: 'Linea A' }])
    res = await connect({ type: 'add', context_key: other, tag_key: lineaA })
    expect(res.body.detail).toEqual([{ _key: lineaA, name: 'Linea A' }])
    expect(await tagsOf(product)).toEqual((await h.request('GET', `/api/product/${product}`, { token: lib })).body.detail.tags)

    expect((await events('TAG_CREATED')).map((e) => e.data.name)).toEqual(['Linea A', 'Elettronica'])
    const added = await events('TAG_ADDED')
    expect(added.map((e) => [e.subject_key, e.data.tag_name])).toEqual([
      [product, 'Linea A'],
      [product, 'Elettronica'],
      [other, 'Linea A'],
    ])
    expect(added[0]!.subject_type).toBe('product')
  })

  test('remove by key or name; removing what is not there changes nothing', async () => {
    const [elettronica] = (await tagsOf(product)) as { _key: string; name: string }[]
    let res = await connect({ type: 'remove', context_key: product, tag_key: elettronica!._key })
    expect(res.body.detail.map((t: { name: string }) => t.name)).toEqual(['Linea A'])
    res = await connect({ type: 'remove', context_key: product, tag_name: 'LINEA A' })
    expect(res.body.detail).toEqual([])
    const before = await tableCounts(h)
    res = await connect({ type: 'remove', context_key: product, tag_name: 'Linea A' })
    expect(res.status).toBe(200)
    expect(await tableCounts(h)).toEqual(before)
    expect((await events('TAG_REMOVED')).map((e) => e.data.tag_name)).toEqual(['Elettronica', 'Linea A'])
    // The tag stays in the library and on the other product.
    expect((await tagsOf(other)).map((t: { name: string }) => t.name)).toEqual(['Linea A'])
  })

  test('refusals write nothing: unknown product, unknown tag, no tag given, product in the trash', async () => {
    const trashed = (await h.request('POST', '/api/product', { token: lib, body: { code: 'TAG-TRASH' } })).body.detail._key
    await h.request('PATCH', `/api/product/${trashed}`, { token: lib, body: { trash: true } })
    const before = await tableCounts(h)
    const cases: [Record<string, unknown>, number, string][] = [
      [{ type: 'add', context_key: MISSING_UUID, tag_name: 'Nuovo' }, 404, 'NOT_FOUND'],
      [{ type: 'add', context_key: product, tag_key: MISSING_UUID }, 404, 'NOT_FOUND'],
      [{ type: 'remove', context_key: product, tag_name: 'Mai visto' }, 404, 'NOT_FOUND'],
      [{ type: 'add', context_key: product }, 400, 'INVALID_INPUT'],
      [{ type: 'add', context_key: product, tag_name: '   ' }, 400, 'INVALID_INPUT'],
      [{ type: 'add', context_key: product, tag_name: 'x'.repeat(61) }, 400, 'INVALID_INPUT'],
      [{ type: 'toggle', context_key: product, tag_name: 'x' }, 400, 'INVALID_INPUT'],
      [{ type: 'add', context: 'job', context_key: product, tag_name: 'x' }, 400, 'INVALID_INPUT'],
      [{ type: 'add', context_key: trashed, tag_name: 'Nuovo' }, 409, 'PRODUCT_IN_TRASH'],
    ]
    for (const [body, status, code] of cases) {
      const res = await connect(body)
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
    }
    expect(await tableCounts(h)).toEqual(before)
    const unknown = await h.request('GET', `/api/tag?context=product&context_key=${MISSING_UUID}`, { token: lib })
    expect(unknown.status).toBe(404)
    const half = await h.request('GET', '/api/tag?context=product', { token: lib })
    expect({ status: half.status, code: appCode(half.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
  })

  test('search: from the configured minimum of characters, at most 100 results, names starting with it first', async () => {
    await sql`insert into tags (name) select 'Serie ' || lpad(g::text, 3, '0') from generate_series(1, 150) as g`.execute(h.svc.db)
    await h.svc.db.insertInto('tags').values({ name: 'Ricambi serie B' }).execute()
    const search = async (s: string) => (await h.request('GET', `/api/tag?search=${encodeURIComponent(s)}`, { token: lib })).body.detail as { name: string }[]
    // Default minimum: 3 characters.
    expect(await search('se')).toEqual([])
    expect(await search('  se  ')).toEqual([])
    const found = await search('ser')
    expect(found).toHaveLength(100)
    expect(found[0]!.name).toBe('Serie 001')
    expect(found.map((t) => t.name)).not.toContain('Ricambi serie B')
    const few = await search('serie b')
    expect(few.map((t) => t.name)).toEqual(['Ricambi serie B'])
    const lin = await search('LIN')
    expect(lin.map((t) => t.name)).toEqual(['Linea A'])
    // The whole library (no search): by name, at most 100.
    const all = (await h.request('GET', '/api/tag', { token: lib })).body.detail
    expect(all).toHaveLength(100)
    expect(all[0].name).toBe('Elettronica')

    // An admin lowers the minimum to 2.
    const admin = await adminToken(h)
    expect((await h.request('PATCH', '/api/settings', { token: admin, body: { autocomplete_min_chars_tags: 2 } })).status).toBe(200)
    expect((await search('el')).map((t) => t.name)).toEqual(['Elettronica'])
    expect(await search('e')).toEqual([])
    const viaTrpc = await trpcCall(h, 'tags.list', 'query', { search: 'el' }, { token: lib })
    expect(viaTrpc.body.result.data.map((t: { name: string }) => t.name)).toEqual(['Elettronica'])
  })

  test('the product list filters by tags: products carrying every chosen tag', async () => {
    const list = async (tags: string[]) =>
      (await h.request('GET', `/api/product?tag=${tags.join(',')}&search=TAG-`, { token: lib })).body.detail.rows.map((r: { code: string }) => r.code)
    const a = (await connect({ type: 'add', context_key: product, tag_name: 'Linea A' })).body.detail[0]._key
    const e = (await connect({ type: 'add', context_key: product, tag_name: 'Elettronica' })).body.detail[0]._key
    expect(await list([a])).toEqual(['TAG-1', 'TAG-2'])
    expect(await list([e])).toEqual(['TAG-1'])
    expect(await list([a, e])).toEqual(['TAG-1'])
    expect(await list([a, a])).toEqual(['TAG-1', 'TAG-2'])
    const rows = (await h.request('GET', '/api/product?search=TAG-1', { token: lib })).body.detail.rows
    expect(rows[0].tags.map((t: { name: string }) => t.name)).toEqual(['Elettronica', 'Linea A'])
    const trpc = await trpcCall(h, 'products.list', 'query', { tags: [e], search: 'TAG-' }, { token: lib })
    expect(trpc.body.result.data.rows.map((r: { code: string }) => r.code)).toEqual(['TAG-1'])
  })
})
