import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'

const countOf = async (h: Harness, table: 'issue_types' | 'events') =>
  Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
const eventsOf = (h: Harness, key: string) =>
  h.svc.db.selectFrom('events').selectAll().where('subject_type', '=', 'issue_type').where('subject_key', '=', key).orderBy('id').execute()

describe('issue types', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })
  const create = (body: unknown, token = admin) => h.request('POST', '/api/issue-type', { token, body })

  test('create with defaults, or with every attribute', async () => {
    const plain = await create({ code: ' SIC ', name: ' Sicurezza ' })
    expect(plain.status).toBe(201)
    expect(plain.body.detail).toMatchObject({
      _key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: 'SIC',
      name: 'Sicurezza',
      close_within: 0,
      critical: false,
      link_type: 'generic',
      print_templates: [],
      active: true,
    })
    const full = await create({ code: 'GM', name: 'Guasto macchina', close_within: 4, critical: true, link_type: 'job', print_templates: ['t1', 't1', 't2'], active: false })
    expect(full.body.detail).toMatchObject({ close_within: 4, critical: true, link_type: 'job', print_templates: ['t1', 't2'], active: false })
    const [event] = await eventsOf(h, full.body.detail._key)
    expect(event).toMatchObject({ event_type: 'ISSUE_TYPE_CREATED', data: { code: 'GM', name: 'Guasto macchina' } })
    expect(event!.user_id).toBeTruthy()
  })

  test('code and name required, code unique, close-within a whole number of hours >= 0; nothing written when refused', async () => {
    const before = [await countOf(h, 'issue_types'), await countOf(h, 'events')]
    const cases: [unknown, number, string, string?][] = [
      [{ code: '', name: 'X' }, 400, 'ISSUE_TYPE_CODE_REQUIRED', 'issue type code required'],
      [{ code: 'X', name: '  ' }, 400, 'ISSUE_TYPE_NAME_REQUIRED', 'issue type name required'],
      [{ name: 'X' }, 400, 'INVALID_INPUT'],
      [{ code: 'sic', name: 'Doppione' }, 409, 'ISSUE_TYPE_CODE_TAKEN', 'issue type code already in use'],
      [{ code: 'N', name: 'N', close_within: -1 }, 400, 'INVALID_INPUT', 'close_within: close_within must be >= 0 (0 = never critical)'],
      [{ code: 'N', name: 'N', close_within: 1.5 }, 400, 'INVALID_INPUT', 'close_within: close_within must be a whole number of hours'],
      [{ code: 'N', name: 'N', close_within: '4' }, 400, 'INVALID_INPUT'],
      [{ code: 'N', name: 'N', link_type: 'customer' }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code, message] of cases) {
      const res = await create(body)
      expect({ body, status: res.status, code: res.body.detail.code }).toEqual({ body, status, code })
      if (message) expect(res.body.detail.message).toBe(message)
    }
    expect([await countOf(h, 'issue_types'), await countOf(h, 'events')]).toEqual(before)
  })

  test('patch: any subset, an event lists what changed, no event when nothing changed', async () => {
    const type = (await create({ code: 'NCM', name: 'NC materiale', close_within: 24 })).body.detail
    const res = await h.request('PATCH', `/api/issue-type/${type._key}`, { token: admin, body: { name: 'Non conformità materiale', critical: true, close_within: 48 } })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ code: 'NCM', name: 'Non conformità materiale', critical: true, close_within: 48 })
    await h.request('PATCH', `/api/issue-type/${type._key}`, { token: admin, body: { name: 'Non conformità materiale', code: 'NCM' } })
    const events = await eventsOf(h, type._key)
    expect(events.map((e) => e.event_type)).toEqual(['ISSUE_TYPE_CREATED', 'ISSUE_TYPE_UPDATED'])
    expect(events[1]!.data).toMatchObject({ changed: ['name', 'close_within', 'critical'] })
    const taken = await h.request('PATCH', `/api/issue-type/${type._key}`, { token: admin, body: { code: 'gm' } })
    expect(taken.status).toBe(409)
    expect(taken.body.detail.code).toBe('ISSUE_TYPE_CODE_TAKEN')
    const recase = await h.request('PATCH', `/api/issue-type/${type._key}`, { token: admin, body: { code: 'ncm' } })
    expect(recase.body.detail.code).toBe('ncm')
    expect((await h.request('PATCH', `/api/issue-type/${crypto.randomUUID()}`, { token: admin, body: { name: 'x' } })).status).toBe(404)
  })

  test('GET issue-type?active_only=true lists the active types only', async () => {
    const all = (await h.request('GET', '/api/issue-type', { token: admin })).body.detail as { code: string; active: boolean }[]
    const active = (await h.request('GET', '/api/issue-type?active_only=true', { token: admin })).body.detail as { code: string }[]
    expect(all.some((t) => !t.active)).toBe(true)
    expect(active.map((t) => t.code)).toEqual(all.filter((t) => t.active).map((t) => t.code))
    expect((await h.request('GET', '/api/issue-type?active_only=maybe', { token: admin })).status).toBe(400)
  })

  test('delete: an unused type goes, with an event', async () => {
    const type = (await create({ code: 'TMP', name: 'Temporaneo' })).body.detail
    const res = await h.request('DELETE', `/api/issue-type/${type._key}`, { token: admin })
    expect(res.status).toBe(200)
    expect((await h.request('GET', `/api/issue-type/${type._key}`, { token: admin })).status).toBe(404)
    expect((await eventsOf(h, type._key)).map((e) => e.event_type)).toEqual(['ISSUE_TYPE_CREATED', 'ISSUE_TYPE_DELETED'])
    expect((await h.request('DELETE', `/api/issue-type/${type._key}`, { token: admin })).status).toBe(404)
  })

  test('a type in use cannot be deleted; the answer lists the issues using it', async () => {
    const type = (await create({ code: 'USED', name: 'In uso' })).body.detail
    const quality = await userWithScope(h, 'u_in_use', 'quality')
    const open = (title: string) => h.request('POST', '/api/issue', { token: quality.token, body: { type_key: type._key, title } })
    const codes = [(await open('Primo')).body.detail.code, (await open('Secondo')).body.detail.code]
    expect(codes).toEqual([expect.stringMatching(/^ISS-\d{6}$/), expect.stringMatching(/^ISS-\d{6}$/)])
    const before = await countOf(h, 'events')
    const res = await h.request('DELETE', `/api/issue-type/${type._key}`, { token: admin })
    expect(res.status).toBe(409)
    expect(res.body.detail).toEqual({
      code: 'ISSUE_TYPE_IN_USE',
      message: `the issue type is in use and cannot be deleted (issues: ${codes.join(', ')})`,
      issues: codes,
    })
    expect((await h.request('GET', `/api/issue-type/${type._key}`, { token: admin })).status).toBe(200)
    expect(await countOf(h, 'events')).toBe(before)
    await h.svc.db.deleteFrom('issues').where('type_id', '=', type._key).execute()

    // Held by something that is not an issue: still refused, with an empty list.
    await sql`create table tmp_type_refs (issue_type_id uuid references issue_types(id) on delete restrict)`.execute(h.svc.db)
    await sql`insert into tmp_type_refs values (${type._key})`.execute(h.svc.db)
    const other = await h.request('DELETE', `/api/issue-type/${type._key}`, { token: admin })
    expect(other.status).toBe(409)
    expect(other.body.detail).toEqual({ code: 'ISSUE_TYPE_IN_USE', message: 'the issue type is in use and cannot be deleted', issues: [] })
    await sql`drop table tmp_type_refs`.execute(h.svc.db)
  })

  test('read by quality, operators and production (they open issues); changed by admins only', async () => {
    for (const scope of ['quality', 'operator', 'production']) {
      const user = await userWithScope(h, `u_${scope}`, scope)
      expect((await h.request('GET', '/api/issue-type?active_only=true', { token: user.token })).status).toBe(200)
      expect((await create({ code: `Z${scope}`, name: 'Z' }, user.token)).status).toBe(403)
    }
    const library = await userWithScope(h, 'u_library', 'library')
    expect((await h.request('GET', '/api/issue-type', { token: library.token })).status).toBe(403)
  })
})
