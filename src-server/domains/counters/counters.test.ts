import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'
import { nextCounterCode } from './service'

const countOf = async (h: Harness, table: 'counters' | 'events') =>
  Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

describe('counters', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })
  // Sessions expire when the clock jumps months: sign in again at each new time.
  const setClock = async (at: Date) => {
    h.clock.set(at)
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  }
  const create = (body: unknown) => h.request('POST', '/api/counter', { token: admin, body })
  const take = (key: string) => h.svc.db.transaction().execute((trx) => nextCounterCode(trx, key, h.clock.now()))
  const codes = async (key: string, n: number) => {
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push((await take(key)).code)
    return out
  }

  test('create, read with the next code, edit, delete; events written', async () => {
    await setClock(new Date(2026, 10, 25, 10))
    const res = await create({ name: '  Seriali motori ', template: 'SN{YY}{MM}-{#####}', frequency: 'month' })
    expect(res.status).toBe(201)
    const c = res.body.detail
    expect(c).toMatchObject({
      name: 'Seriali motori',
      template: 'SN{YY}{MM}-{#####}',
      frequency: 'month',
      next_value: 1,
      reset_date: '2026/11/01',
      next_tick: '2026/12/01',
      next_code: 'SN2611-00001',
    })
    expect((await h.request('GET', `/api/counter/${c._key}`, { token: admin })).body.detail).toEqual(c)
    const patched = await h.request('PATCH', `/api/counter/${c._key}`, { token: admin, body: { next_value: 120, template: 'M{YYYY}{MM}-{#####}' } })
    expect(patched.status).toBe(200)
    expect(patched.body.detail).toMatchObject({ next_value: 120, next_code: 'M202611-00120' })
    expect(await take(c._key)).toEqual({ code: 'M202611-00120', value: 120 })
    expect((await h.request('GET', `/api/counter/${c._key}`, { token: admin })).body.detail.next_value).toBe(121)
    const list = await h.request('GET', '/api/counter', { token: admin })
    expect(list.body.detail.map((r: { name: string }) => r.name)).toContain('Seriali motori')
    const del = await h.request('DELETE', `/api/counter/${c._key}`, { token: admin })
    expect(del.status).toBe(200)
    expect((await h.request('GET', `/api/counter/${c._key}`, { token: admin })).status).toBe(404)
    const types = (await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', c._key).orderBy('id').execute()).map((e) => e.event_type)
    expect(types).toEqual(['COUNTER_CREATED', 'COUNTER_UPDATED', 'COUNTER_DELETED'])
  })

  test('each frequency restarts the sequence across its boundary (plant calendar)', async () => {
    const cases = [
      { frequency: 'never', template: 'N-{###}', before: new Date(2026, 11, 31, 23, 59), after: new Date(2027, 0, 1, 0, 1), codes: ['N-001', 'N-002', 'N-003'] },
      { frequency: 'year', template: 'Y{YYYY}-{###}', before: new Date(2026, 11, 31, 23, 59), after: new Date(2027, 0, 1, 0, 1), codes: ['Y2026-001', 'Y2026-002', 'Y2027-001'] },
      { frequency: 'month', template: 'M{YY}{MM}-{###}', before: new Date(2026, 10, 30, 23, 59), after: new Date(2026, 11, 1, 0, 1), codes: ['M2611-001', 'M2611-002', 'M2612-001'] },
      // Sunday 29 November 2026 ends ISO week 48; Monday 30 starts week 49.
      { frequency: 'week', template: 'W{YY}{WW}-{###}', before: new Date(2026, 10, 29, 23, 59), after: new Date(2026, 10, 30, 0, 1), codes: ['W2648-001', 'W2648-002', 'W2649-001'] },
      { frequency: 'day', template: 'D{YY}{MM}{DD}-{###}', before: new Date(2026, 10, 25, 23, 59), after: new Date(2026, 10, 26, 0, 1), codes: ['D261125-001', 'D261125-002', 'D261126-001'] },
    ] as const
    for (const c of cases) {
      await setClock(c.before)
      const key = (await create({ name: `Reset ${c.frequency}`, template: c.template, frequency: c.frequency })).body.detail._key
      const got = await codes(key, 2)
      await setClock(c.after)
      expect((await h.request('GET', `/api/counter/${key}`, { token: admin })).body.detail.next_value).toBe(c.frequency === 'never' ? 3 : 1)
      got.push((await take(key)).code)
      expect(got).toEqual([...c.codes])
    }
  })

  test('week counters across the year: ISO week 53 of 2026 on 1 January 2027, then week 1 of 2027', async () => {
    await setClock(new Date(2026, 11, 31, 12))
    const key = (await create({ name: 'Settimanale', template: '{YYYY}-{WW}-{##}', frequency: 'week' })).body.detail._key
    expect(await codes(key, 1)).toEqual(['2026-53-01'])
    await setClock(new Date(2027, 0, 1, 12))
    expect(await codes(key, 1)).toEqual(['2026-53-02'])
    await setClock(new Date(2027, 0, 4, 0, 0))
    expect(await codes(key, 1)).toEqual(['2027-01-01'])
  })

  test('bad templates refused with a clear 400, nothing written', async () => {
    const before = [await countOf(h, 'counters'), await countOf(h, 'events')]
    const cases = [
      [{ name: 'A', template: 'SN{YY' }, 'COUNTER_TEMPLATE_BRACES', /brace at character 3/],
      [{ name: 'A', template: 'SN{HH}{###}' }, 'COUNTER_TEMPLATE_UNKNOWN_PART', /unknown part \{HH\}/],
      [{ name: 'A', template: 'SN-FISSO' }, 'COUNTER_TEMPLATE_SEQUENCE', /exactly one sequence/],
      [{ name: 'A', template: '' }, 'COUNTER_TEMPLATE_SEQUENCE', /exactly one sequence/],
      [{ name: 'A', template: 'SN-{###}', frequency: 'month' }, 'COUNTER_TEMPLATE_PERIOD_MISSING', /add \{YYYY\} \{MM\}/],
      [{ name: '  ', template: 'SN-{###}' }, 'COUNTER_NAME_REQUIRED', /name required/],
    ] as const
    for (const [body, code, message] of cases) {
      const res = await create(body)
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe(code)
      expect(res.body.detail.message).toMatch(message)
    }
    const long = await create({ name: 'A', template: `{###}${'x'.repeat(10_000)}` })
    expect(long.status).toBe(400)
    expect(long.body.detail).toMatchObject({ code: 'INVALID_INPUT', issues: [{ path: 'template', kind: 'max_length', limit: 200 }] })
    const nul = await create({ name: 'A', template: 'SN\u0000{###}' })
    expect(nul.status).toBe(400)
    expect(nul.body.detail.message).toMatch(/NUL/)
    const freq = await create({ name: 'A', template: 'SN{###}', frequency: 'hourly' })
    expect(freq.status).toBe(400)
    expect(freq.body.detail.code).toBe('INVALID_INPUT')
    const unknownKey = await create({ name: 'A', template: 'SN{###}', reset: 'never' })
    expect(unknownKey.status).toBe(400)
    const tooBig = await create({ name: 'A', template: 'SN{###}', next_value: 1000 })
    expect(tooBig.status).toBe(409)
    expect(tooBig.body.detail.code).toBe('COUNTER_SEQUENCE_FULL')
    expect([await countOf(h, 'counters'), await countOf(h, 'events')]).toEqual(before)
  })

  test('name unique whatever the case; edits refused change nothing', async () => {
    const key = (await create({ name: 'Unico', template: 'U{###}' })).body.detail._key
    expect((await create({ name: 'UNICO', template: 'U{###}' })).body.detail.code).toBe('COUNTER_NAME_TAKEN')
    await create({ name: 'Altro', template: 'A{###}' })
    const clash = await h.request('PATCH', `/api/counter/${key}`, { token: admin, body: { name: 'altro' } })
    expect(clash.status).toBe(409)
    const bad = await h.request('PATCH', `/api/counter/${key}`, { token: admin, body: { frequency: 'year' } })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.code).toBe('COUNTER_TEMPLATE_PERIOD_MISSING')
    expect((await h.request('GET', `/api/counter/${key}`, { token: admin })).body.detail).toMatchObject({ name: 'Unico', frequency: 'never' })
    expect((await h.request('PATCH', `/api/counter/nope`, { token: admin, body: { name: 'x' } })).status).toBe(404)
  })

  test('a sequence past its width is refused and gives nothing away', async () => {
    await setClock(new Date(2026, 10, 25, 10))
    const key = (await create({ name: 'Stretto', template: 'S{#}', next_value: 9 })).body.detail._key
    expect((await take(key)).code).toBe('S9')
    expect((await h.request('GET', `/api/counter/${key}`, { token: admin })).body.detail.next_code).toBeNull()
    await expect(take(key)).rejects.toMatchObject({ appCode: 'COUNTER_SEQUENCE_FULL', status: 409 })
    const row = await h.svc.db.selectFrom('counters').select('next_value').where('id', '=', key).executeTakeFirstOrThrow()
    expect(Number(row.next_value)).toBe(10)
  })

  test('mass copy: all chosen counters, new names, numbering from 1; an unknown key copies nothing', async () => {
    await setClock(new Date(2026, 10, 25, 10))
    const a = (await create({ name: 'Copia A', template: 'CA{YY}-{###}', frequency: 'year', next_value: 50 })).body.detail._key
    const b = (await create({ name: 'Copia B', template: 'CB-{###}' })).body.detail._key
    const res = await h.request('POST', '/api/counter/copy', { token: admin, body: { keys: [a, b] } })
    expect(res.status).toBe(201)
    expect(res.body.detail.map((r: { name: string; next_value: number; template: string }) => [r.name, r.next_value, r.template])).toEqual([
      ['Copia A (2)', 1, 'CA{YY}-{###}'],
      ['Copia B (2)', 1, 'CB-{###}'],
    ])
    const again = await h.request('POST', '/api/counter/copy', { token: admin, body: { keys: [a] } })
    expect(again.body.detail[0].name).toBe('Copia A (3)')
    const before = await countOf(h, 'counters')
    const missing = await h.request('POST', '/api/counter/copy', { token: admin, body: { keys: [a, crypto.randomUUID()] } })
    expect(missing.status).toBe(404)
    expect((await h.request('POST', '/api/counter/copy', { token: admin, body: { keys: [] } })).status).toBe(400)
    expect(await countOf(h, 'counters')).toBe(before)
  })

  test('a counter still referred to cannot be deleted (409 COUNTER_IN_USE)', async () => {
    const key = (await create({ name: 'In uso', template: 'IU{###}' })).body.detail._key
    // Serials and phases refer to counters with RESTRICT foreign keys; a stand-in table here.
    await sql`create table counter_refs_test (counter_id uuid not null references counters(id) on delete restrict)`.execute(h.svc.db)
    await sql`insert into counter_refs_test values (${key})`.execute(h.svc.db)
    const res = await h.request('DELETE', `/api/counter/${key}`, { token: admin })
    expect(res.status).toBe(409)
    expect(res.body.detail.code).toBe('COUNTER_IN_USE')
    expect((await h.request('GET', `/api/counter/${key}`, { token: admin })).status).toBe(200)
    await sql`drop table counter_refs_test`.execute(h.svc.db)
  })

  test('tRPC: the same rules; list with search and paging; admins only', async () => {
    const bad = await h.request('POST', '/api/trpc/counters.create', { token: admin, body: { name: 'T', template: 'T{QQ}{###}' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.data.appCode).toBe('COUNTER_TEMPLATE_UNKNOWN_PART')
    const ok = await h.request('POST', '/api/trpc/counters.create', { token: admin, body: { name: 'Via tRPC', template: 'TR-{####}' } })
    expect(ok.body.result.data).toMatchObject({ name: 'Via tRPC', next_code: 'TR-0001' })
    const list = await h.request('GET', `/api/trpc/counters.list?input=${encodeURIComponent(JSON.stringify({ search: 'tr-', page_size: 5 }))}`, { token: admin })
    expect(list.body.result.data).toMatchObject({ total: 1, rows: [{ name: 'Via tRPC' }] })
    const other = (await userWithScope(h, 'tracciatore', 'traceability')).token
    expect((await h.request('GET', '/api/counter', { token: other })).status).toBe(403)
    expect((await h.request('POST', '/api/counter', { token: other, body: { name: 'X', template: 'X{#}' } })).status).toBe(403)
  })

  test('100 concurrent code requests on one counter: 100 distinct codes', async () => {
    await setClock(new Date(2026, 10, 25, 10))
    const key = (await create({ name: 'Concorrente', template: 'C{YY}-{#####}', frequency: 'year' })).body.detail._key
    const taken = await Promise.all(Array.from({ length: 100 }, () => take(key)))
    expect(new Set(taken.map((t) => t.code)).size).toBe(100)
    expect(taken.map((t) => t.value).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    // A rolled-back transaction gives its number back.
    await expect(
      h.svc.db.transaction().execute(async (trx) => {
        await nextCounterCode(trx, key, h.clock.now())
        throw new Error('serial insert failed')
      }),
    ).rejects.toThrow('serial insert failed')
    expect((await take(key)).code).toBe('C26-00101')
  }, 60_000)
})
