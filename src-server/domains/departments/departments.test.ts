import { beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'

const departmentRows = (h: Harness) => h.svc.db.selectFrom('departments').selectAll().orderBy('code').execute()
const eventsOf = (h: Harness, type: string) =>
  h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()

describe('departments', () => {
  const h = useHarness()
  let admin: string
  let operator: string
  let operatorKey: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const op = await userWithScope(h, 'op1', 'operator')
    operator = op.token
    operatorKey = op.key
  })

  const create = (code: string, name: string, token = admin) => h.request('POST', '/api/department', { token, body: { code, name } })

  test('create answers 201 with the key; the list is by code with user counts', async () => {
    const res = await create(' ASM ', ' Assemblaggio ')
    expect(res.status).toBe(201)
    expect(res.body.detail).toMatchObject({ code: 'ASM', name: 'Assemblaggio', user_count: 0 })
    expect(res.body.detail._key).toMatch(/^[0-9a-f-]{36}$/)
    expect((await create('COL', 'Collaudo')).status).toBe(201)
    const list = await h.request('GET', '/api/department', { token: admin })
    expect(list.status).toBe(200)
    expect(list.body.detail.map((d: { code: string }) => d.code)).toEqual(['ASM', 'COL'])
    const [event] = await eventsOf(h, 'DEPARTMENT_CREATED')
    expect(event?.subject_key).toBe(res.body.detail._key)
    expect(event?.data).toEqual({ code: 'ASM', name: 'Assemblaggio' })
  })

  test('the code is unique ignoring case: 409, nothing written', async () => {
    const before = await departmentRows(h)
    const res = await create('asm', 'Another')
    expect(res.status).toBe(409)
    expect(res.body.detail).toEqual({ code: 'DEPARTMENT_CODE_TAKEN', message: 'department code already in use' })
    expect(await departmentRows(h)).toEqual(before)
    expect((await eventsOf(h, 'DEPARTMENT_CREATED')).length).toBe(2)
  })

  test('code and name are required, in text the database can store', async () => {
    const unstorable = [{ code: 'A\u0000B', name: 'x' }, { code: 'X', name: '\ud800' }]
    for (const body of [{ code: '', name: 'x' }, { code: '  ', name: 'x' }, { code: 'X' }, { name: 'x' }, { code: 'X', name: ' ' }, {}, ...unstorable]) {
      const res = await h.request('POST', '/api/department', { token: admin, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
    }
    expect((await create('X'.repeat(31), 'Too long')).status).toBe(400)
  })

  test('rename and recode; a taken code is refused; the event lists the changes', async () => {
    const col = (await departmentRows(h)).find((d) => d.code === 'COL')!
    const renamed = await h.request('PATCH', `/api/department/${col.id}`, { token: admin, body: { name: 'Collaudo finale', code: 'CF' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.detail).toMatchObject({ code: 'CF', name: 'Collaudo finale' })
    const [event] = await eventsOf(h, 'DEPARTMENT_UPDATED')
    expect(event?.data).toEqual({ changes: { code: { from: 'COL', to: 'CF' }, name: { from: 'Collaudo', to: 'Collaudo finale' } } })
    const taken = await h.request('PATCH', `/api/department/${col.id}`, { token: admin, body: { code: 'Asm' } })
    expect(taken.status).toBe(409)
    expect(taken.body.detail.code).toBe('DEPARTMENT_CODE_TAKEN')
    // Changing only the case of its own code is allowed.
    const own = await h.request('PATCH', `/api/department/${col.id}`, { token: admin, body: { code: 'cf' } })
    expect(own.status).toBe(200)
    expect(own.body.detail.code).toBe('cf')
    const missing = await h.request('PATCH', '/api/department/00000000-0000-4000-8000-000000000000', { token: admin, body: { name: 'x' } })
    expect(missing.status).toBe(404)
    expect((await h.request('PATCH', '/api/department/not-a-uuid', { token: admin, body: { name: 'x' } })).status).toBe(400)
  })

  test('a department in use by a user cannot be deleted (409); once free it can', async () => {
    const asm = (await departmentRows(h)).find((d) => d.code === 'ASM')!
    await h.svc.db.updateTable('users').set({ department_id: asm.id }).where('id', '=', operatorKey).execute()
    const list = await h.request('GET', '/api/department', { token: admin })
    expect(list.body.detail.find((d: { _key: string }) => d._key === asm.id).user_count).toBe(1)

    const refused = await h.request('DELETE', `/api/department/${asm.id}`, { token: admin })
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toEqual({
      code: 'DEPARTMENT_IN_USE',
      message: 'the department is assigned to users and cannot be deleted',
      users: 1,
    })
    expect((await departmentRows(h)).some((d) => d.id === asm.id)).toBe(true)
    expect(await eventsOf(h, 'DEPARTMENT_DELETED')).toEqual([])

    // Archived users keep their department (traceability), so they count too.
    await h.svc.db.updateTable('users').set({ archived_at: h.clock.now() }).where('id', '=', operatorKey).execute()
    expect((await h.request('DELETE', `/api/department/${asm.id}`, { token: admin })).status).toBe(409)
    await h.svc.db.updateTable('users').set({ archived_at: null, department_id: null }).where('id', '=', operatorKey).execute()

    const deleted = await h.request('DELETE', `/api/department/${asm.id}`, { token: admin })
    expect(deleted.status).toBe(200)
    expect((await departmentRows(h)).some((d) => d.id === asm.id)).toBe(false)
    const [event] = await eventsOf(h, 'DEPARTMENT_DELETED')
    expect(event?.data).toEqual({ code: 'ASM', name: 'Assemblaggio' })
    expect((await h.request('DELETE', `/api/department/${asm.id}`, { token: admin })).status).toBe(404)
  })

  test('the database itself refuses a user pointing at a missing department', async () => {
    const attempt = h.svc.db
      .updateTable('users')
      .set({ department_id: '00000000-0000-4000-8000-000000000000' })
      .where('id', '=', operatorKey)
      .execute()
    await expect(attempt).rejects.toThrow()
  })

  test('every signed-in user reads departments; only admin changes them', async () => {
    const read = await h.request('GET', '/api/department', { token: operator })
    expect(read.status).toBe(200)
    expect((await h.request('GET', '/api/trpc/departments.list', { token: operator })).status).toBe(200)
    expect((await h.request('GET', '/api/department')).status).toBe(401)
    const before = await departmentRows(h)
    const key = before[0]!.id
    expect((await create('NEW', 'Nuovo', operator)).status).toBe(403)
    expect((await h.request('PATCH', `/api/department/${key}`, { token: operator, body: { name: 'x' } })).status).toBe(403)
    expect((await h.request('DELETE', `/api/department/${key}`, { token: operator })).status).toBe(403)
    expect((await h.request('POST', '/api/trpc/departments.create', { token: operator, body: { code: 'N', name: 'N' } })).status).toBe(403)
    expect(await departmentRows(h)).toEqual(before)
  })

  test('tRPC create, update and remove call the same rules', async () => {
    const created = await h.request('POST', '/api/trpc/departments.create', { token: admin, body: { code: 'IMB', name: 'Imballaggio' } })
    expect(created.status).toBe(200)
    const key = created.body.result.data._key
    const dup = await h.request('POST', '/api/trpc/departments.create', { token: admin, body: { code: 'imb', name: 'x' } })
    expect(dup.body.error.data.appCode).toBe('DEPARTMENT_CODE_TAKEN')
    const upd = await h.request('POST', '/api/trpc/departments.update', { token: admin, body: { key, patch: { name: 'Imballo' } } })
    expect(upd.body.result.data.name).toBe('Imballo')
    const del = await h.request('POST', '/api/trpc/departments.remove', { token: admin, body: { key } })
    expect(del.status).toBe(200)
  })
})
