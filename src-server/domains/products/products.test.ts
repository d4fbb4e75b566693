import { beforeAll, describe, expect, test } from 'bun:test'
import { restRoutes } from '../../rest/routes'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'

async function eventsOf(h: Harness, key: string) {
  const rows = await h.svc.db.selectFrom('events').select(['event_type', 'data', 'user_id']).where('subject_key', '=', key).orderBy('id').execute()
  return rows
}

describe('products: create, read, update', () => {
  const h = useHarness()
  let lib: { key: string; token: string }

  beforeAll(async () => {
    lib = await userWithScope(h, 'lib1', 'library')
  })

  const create = (body: unknown, token = lib.token) => h.request('POST', '/api/product', { token, body })

  test('POST product: code required, trimmed; the answer is the product; event PRODUCT_CREATED', async () => {
    const before = await tableCounts(h)
    for (const code of ['', '   ']) {
      const res = await create({ code })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'PRODUCT_CODE_REQUIRED' })
      expect(res.body.detail.message).toBe('product code required')
    }
    const missing = await create({ description: 'no code' })
    expect({ status: missing.status, code: appCode(missing.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    expect(await tableCounts(h)).toEqual(before)

    const res = await create({ code: '  PRD-100 ', description: ' Pompa idraulica ' })
    expect(res.status).toBe(201)
    const p = res.body.detail
    expect(p).toMatchObject({
      code: 'PRD-100',
      description: 'Pompa idraulica',
      active: true,
      trash: false,
      notes: '',
      minimum_order: null,
      technical_batch: null,
      image_url: null,
      metadata: [],
      tags: [],
      docs: [],
      print_templates: [],
      phase_count: 0,
    })
    expect(p._key).toMatch(/^[0-9a-f-]{36}$/)
    expect(typeof p.created_at).toBe('number')
    const events = await eventsOf(h, p._key)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ event_type: 'PRODUCT_CREATED', user_id: lib.key, data: { code: 'PRD-100', description: 'Pompa idraulica' } })

    const got = await h.request('GET', `/api/product/${p._key}`, { token: lib.token })
    expect(got.status).toBe(200)
    expect(got.body.detail).toEqual(p)
  })

  test('codes are unique whatever the case: 409 PRODUCT_CODE_TAKEN and nothing written', async () => {
    await create({ code: 'ABC-1' })
    const before = await tableCounts(h)
    for (const code of ['ABC-1', 'abc-1', ' Abc-1 ']) {
      const res = await create({ code })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 409, code: 'PRODUCT_CODE_TAKEN' })
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('unknown or malformed keys answer 404', async () => {
    for (const key of [MISSING_UUID, 'not-a-key', '1']) {
      const res = await h.request('GET', `/api/product/${key}`, { token: lib.token })
      expect({ key, status: res.status, code: appCode(res.body) }).toEqual({ key, status: 404, code: 'NOT_FOUND' })
      const put = await h.request('PUT', `/api/product/${key}`, { token: lib.token, body: { code: 'X' } })
      expect(put.status).toBe(404)
    }
  })

  test('PUT product: the home fields; what changed is in PRODUCT_UPDATED; no change, no event', async () => {
    const p = (await create({ code: 'UPD-1', description: 'Prima' })).body.detail
    const res = await h.request('PUT', `/api/product/${p._key}`, {
      token: lib.token,
      body: { code: 'UPD-1', description: 'Seconda', notes: 'Riga 1\nRiga 2', minimum_order: 10, technical_batch: 50, metadata: [] },
    })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ code: 'UPD-1', description: 'Seconda', notes: 'Riga 1\nRiga 2', minimum_order: 10, technical_batch: 50 })
    expect(res.body.detail.updated_at).toBeGreaterThanOrEqual(p.updated_at)
    let events = await eventsOf(h, p._key)
    expect(events.map((e) => e.event_type)).toEqual(['PRODUCT_CREATED', 'PRODUCT_UPDATED'])
    expect(events[1]!.data).toMatchObject({ changed: ['description', 'notes', 'minimum_order', 'technical_batch'], code: 'UPD-1' })

    // The same values again: nothing written.
    const before = await tableCounts(h)
    const same = await h.request('PUT', `/api/product/${p._key}`, {
      token: lib.token,
      body: { code: 'UPD-1', description: 'Seconda', notes: 'Riga 1\nRiga 2', minimum_order: 10, technical_batch: 50, metadata: [] },
    })
    expect(same.status).toBe(200)
    expect(await tableCounts(h)).toEqual(before)

    // Clearing the quantities; a case change of its own code is allowed.
    const cleared = await h.request('PUT', `/api/product/${p._key}`, { token: lib.token, body: { code: 'upd-1', minimum_order: null, technical_batch: null } })
    expect(cleared.body.detail).toMatchObject({ code: 'upd-1', minimum_order: null, technical_batch: null, description: 'Seconda' })
    events = await eventsOf(h, p._key)
    expect(events.at(-1)!.data).toMatchObject({ changed: ['code', 'minimum_order', 'technical_batch'] })
  })

  test('PUT product: code rules and quantity bounds; refusals write nothing', async () => {
    await create({ code: 'TAKEN-1' })
    const p = (await create({ code: 'MINE-1' })).body.detail
    const before = await tableCounts(h)
    const cases: [unknown, number, string][] = [
      [{ code: '' }, 400, 'PRODUCT_CODE_REQUIRED'],
      [{ code: 'taken-1' }, 409, 'PRODUCT_CODE_TAKEN'],
      [{ code: 'MINE-1', minimum_order: -1 }, 400, 'INVALID_INPUT'],
      [{ code: 'MINE-1', technical_batch: 1.5 }, 400, 'INVALID_INPUT'],
      [{ code: 'X'.repeat(61) }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code] of cases) {
      const res = await h.request('PUT', `/api/product/${p._key}`, { token: lib.token, body })
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('PATCH product: deactivate, reactivate, trash, restore, each with its event; the list filters follow', async () => {
    const p = (await create({ code: 'STATE-1', description: 'Stato' })).body.detail
    const inList = async (state: string) => {
      const res = await h.request('GET', `/api/product?state=${state}&search=STATE-1`, { token: lib.token })
      expect(res.status).toBe(200)
      return res.body.detail.rows.map((r: { code: string }) => r.code)
    }
    const patch = (body: unknown) => h.request('PATCH', `/api/product/${p._key}`, { token: lib.token, body })
    expect(await inList('active')).toEqual(['STATE-1'])

    let res = await patch({ active: false })
    expect(res.body.detail).toMatchObject({ active: false, trash: false })
    expect(await inList('active')).toEqual([])
    expect(await inList('inactive')).toEqual(['STATE-1'])

    res = await patch({ active: true })
    expect(res.body.detail).toMatchObject({ active: true, trash: false })
    expect(await inList('active')).toEqual(['STATE-1'])

    res = await patch({ trash: true })
    expect(res.body.detail).toMatchObject({ active: true, trash: true })
    expect(await inList('active')).toEqual([])
    expect(await inList('trash')).toEqual(['STATE-1'])
    // Without a state: everything not in the trash.
    const all = await h.request('GET', '/api/product?search=STATE-1', { token: lib.token })
    expect(all.body.detail.total).toBe(0)

    // In the trash: readable, restorable, not changeable.
    const before = await tableCounts(h)
    const put = await h.request('PUT', `/api/product/${p._key}`, { token: lib.token, body: { code: 'STATE-1', description: 'x' } })
    expect({ status: put.status, code: appCode(put.body) }).toEqual({ status: 409, code: 'PRODUCT_IN_TRASH' })
    const again = await patch({ trash: true })
    expect(again.status).toBe(200)
    expect(await tableCounts(h)).toEqual(before)

    res = await patch({ trash: false })
    expect(res.body.detail).toMatchObject({ trash: false })
    expect(await inList('active')).toEqual(['STATE-1'])

    const events = await eventsOf(h, p._key)
    expect(events.map((e) => e.event_type)).toEqual([
      'PRODUCT_CREATED',
      'PRODUCT_DEACTIVATED',
      'PRODUCT_REACTIVATED',
      'PRODUCT_TRASHED',
      'PRODUCT_RESTORED',
    ])
    expect(events.every((e) => e.user_id === lib.key)).toBe(true)

    const empty = await patch({})
    expect({ status: empty.status, code: appCode(empty.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    const missing = await h.request('PATCH', `/api/product/${MISSING_UUID}`, { token: lib.token, body: { active: false } })
    expect(missing.status).toBe(404)
  })

  test('GET product: search on code and description, sort, paging; {rows, total}', async () => {
    for (const [code, description] of [
      ['LST-03', 'Valvola a sfera'],
      ['LST-01', 'Staffa zincata'],
      ['LST-02', 'Valvola di ritegno'],
      ['lst-04', 'Guarnizione 100% NBR'],
    ]) {
      await create({ code, description })
    }
    const list = async (qs: string) => (await h.request('GET', `/api/product?${qs}`, { token: lib.token })).body.detail
    let page = await list('search=lst-&page_size=2')
    expect(page.total).toBe(4)
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['LST-01', 'LST-02'])
    expect(Object.keys(page.rows[0]).sort()).toEqual(['_key', 'active', 'code', 'description', 'image_url', 'tags', 'trash', 'updated_at'])
    page = await list('search=lst-&page_size=2&page=2')
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['LST-03', 'lst-04'])
    page = await list('search=lst-&page_size=2&page=3')
    expect(page).toEqual({ rows: [], total: 4 })
    page = await list('search=VALVOLA')
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['LST-02', 'LST-03'])
    page = await list('search=lst-&sort=description&dir=desc')
    expect(page.rows.map((r: { description: string }) => r.description)).toEqual(['Valvola di ritegno', 'Valvola a sfera', 'Staffa zincata', 'Guarnizione 100% NBR'])
    page = await list('search=lst-&sort=code&dir=desc')
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['lst-04', 'LST-03', 'LST-02', 'LST-01'])
    // % and _ are literal.
    page = await list(`search=${encodeURIComponent('100%')}`)
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['lst-04'])
    page = await list('search=l_t')
    expect(page.total).toBe(0)
    // A page past any list (1e308 made the offset overflow: a 500, found by the route fuzz test).
    for (const qs of ['state=deleted', 'page=0', 'page=1e308', 'page=100001', 'page_size=101', 'sort=price', 'tag=nope']) {
      const res = await h.request('GET', `/api/product?${qs}`, { token: lib.token })
      expect({ qs, status: res.status, code: appCode(res.body) }).toEqual({ qs, status: 400, code: 'INVALID_INPUT' })
    }
    const far = await trpcCall(h, 'products.list', 'query', { page: 1e308 }, { token: lib.token })
    expect({ status: far.status, code: appCode(far.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    // The same through tRPC.
    const trpc = await trpcCall(h, 'products.list', 'query', { search: 'valvola', sort: 'code', dir: 'desc' }, { token: lib.token })
    expect(trpc.body.result.data.rows.map((r: { code: string }) => r.code)).toEqual(['LST-03', 'LST-02'])
  })
})

describe('products: who may read and write', () => {
  const h = useHarness()

  test('the access declarations: reading for the areas that need products, writing for the library', () => {
    const readers = ['admin', 'library', 'operator', 'production', 'quality', 'traceability', 'warehouse']
    const mine = restRoutes.filter((r) => r.path === '/product' || r.path === '/product/{key}' || /^\/product\/\{key\}\/(image|doc)/.test(r.path) || ['/files', '/tag', '/tag/update-connections'].includes(r.path))
    expect(mine).toHaveLength(13)
    for (const r of mine) {
      const scope = [...(r.access.scope as readonly string[])].sort()
      // POST files also takes the operator's uploads for a running batch (bucket 'batch'; the service checks who).
      const writers = r.method === 'post' && r.path === '/files' ? ['library', 'operator'] : ['library']
      expect({ route: `${r.method} ${r.path}`, scope }).toEqual({ route: `${r.method} ${r.path}`, scope: r.method === 'get' ? readers : writers })
    }
  })

  test('library writes; production, operator, quality, traceability, warehouse and admin read; reporting neither', async () => {
    const lib = await userWithScope(h, 'lib', 'library')
    const created = await h.request('POST', '/api/product', { token: lib.token, body: { code: 'PERM-1' } })
    const key = created.body.detail._key
    for (const scope of ['production', 'operator', 'quality', 'traceability', 'warehouse', 'admin']) {
      const u = await userWithScope(h, `reader.${scope}`, scope)
      expect((await h.request('GET', '/api/product', { token: u.token })).status).toBe(200)
      expect((await h.request('GET', `/api/product/${key}`, { token: u.token })).status).toBe(200)
      expect((await h.request('GET', '/api/tag', { token: u.token })).status).toBe(200)
      const before = await tableCounts(h)
      for (const [method, path, body] of [
        ['POST', '/api/product', { code: `X-${scope}` }],
        ['PUT', `/api/product/${key}`, { code: 'PERM-1', description: 'x' }],
        ['PATCH', `/api/product/${key}`, { active: false }],
        ['DELETE', `/api/product/${key}/image`, undefined],
        ['POST', '/api/tag/update-connections', { type: 'add', context: 'product', context_key: key, tag_name: 'x' }],
        ['DELETE', '/api/files', { bucket: 'product', object_key: key, subfolder: MISSING_UUID, filenames: ['a.pdf'] }],
      ] as const) {
        const res = await h.request(method, path, { token: u.token, body })
        expect({ scope, method, path, status: res.status, code: appCode(res.body) }).toEqual({ scope, method, path, status: 403, code: 'NOT_AUTHORISED' })
      }
      const trpc = await trpcCall(h, 'products.create', 'mutation', { code: 'Y' }, { token: u.token })
      expect(trpc.status).toBe(403)
      expect(await tableCounts(h)).toEqual(before)
    }
    const reporting = await userWithScope(h, 'reporter', 'reporting')
    expect((await h.request('GET', '/api/product', { token: reporting.token })).status).toBe(403)
    expect((await h.request('GET', `/api/product/${key}`, { token: reporting.token })).status).toBe(403)
    expect((await h.request('GET', '/api/product')).status).toBe(401)
  })
})
