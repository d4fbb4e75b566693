import { beforeAll, describe, expect, test } from 'bun:test'
import { FIELD_TYPES } from '../../../src/domains/form-fields/schemas'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'

const countOf = async (h: Harness, table: 'form_fields' | 'events') =>
  Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
const eventTypes = async (h: Harness, key: string) =>
  (await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', key).orderBy('id').execute()).map((e) => e.event_type)

describe('form fields', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })
  const create = (body: unknown, token = admin) => h.request('POST', '/api/field', { token, body })
  const patch = (key: string, body: unknown) => h.request('PATCH', `/api/field/${key}`, { token: admin, body })

  test('every type can be created, with flags and help text', async () => {
    for (const type of FIELD_TYPES) {
      const res = await create({
        name: `Campo ${type}`,
        type,
        options: type === 'choice' ? [' Rosso ', 'Verde'] : ['ignored'],
        multiple: !['boolean', 'ternary'].includes(type),
        mandatory: type === 'number',
        help_text: ` Aiuto per ${type} `,
      })
      expect(res.status).toBe(201)
      const key = res.body.detail._key
      expect(key).toMatch(/^[0-9a-f-]{36}$/)
      expect(res.body.detail).toMatchObject({
        name: `Campo ${type}`,
        type,
        options: type === 'choice' ? ['Rosso', 'Verde'] : [],
        multiple: !['boolean', 'ternary'].includes(type),
        mandatory: type === 'number',
        help_text: `Aiuto per ${type}`,
        active: true,
        in_use: false,
      })
      expect({ type, events: await eventTypes(h, key) }).toEqual({ type, events: ['FORM_FIELD_CREATED'] })
    }
    const list = await h.request('GET', '/api/field', { token: admin })
    expect(list.body.detail.map((f: { type: string }) => f.type).sort()).toEqual([...FIELD_TYPES].sort())
  })

  test('rules: name required and unique, choice needs options, yes/no fields take one value; nothing written when refused', async () => {
    const before = [await countOf(h, 'form_fields'), await countOf(h, 'events')]
    const cases: [unknown, number, string, string][] = [
      [{ name: ' ', type: 'text' }, 400, 'FIELD_NAME_REQUIRED', 'form field name required'],
      [{ name: 'campo TEXT', type: 'number' }, 409, 'FIELD_NAME_TAKEN', 'form field name already in use'],
      [{ name: 'Colore', type: 'choice' }, 400, 'FIELD_OPTIONS_REQUIRED', 'a choice field needs at least one option'],
      [{ name: 'Colore', type: 'choice', options: ['A', ' a '] }, 400, 'INVALID_INPUT', 'options must all be different'],
      [{ name: 'Colore', type: 'choice', options: ['A', ''] }, 400, 'INVALID_INPUT', 'options: may not be empty'],
      [{ name: 'Ok', type: 'boolean', multiple: true }, 400, 'INVALID_INPUT', 'multiple: boolean fields take a single value: multiple values are not available'],
      [{ name: 'Strano', type: 'color' }, 400, 'INVALID_INPUT', 'type: type must be one of text, number, boolean, ternary, choice, date, time, files'],
      [{ name: 'Lungo', type: 'text', help_text: 'x'.repeat(2001) }, 400, 'INVALID_INPUT', 'help_text: the help text may have at most 2000 characters'],
    ]
    for (const [body, status, code, message] of cases) {
      const res = await create(body)
      expect({ body, status: res.status, detail: res.body.detail }).toEqual({ body, status, detail: { code, message, ...(code === 'INVALID_INPUT' && res.body.detail.issues ? { issues: res.body.detail.issues } : {}) } })
    }
    expect([await countOf(h, 'form_fields'), await countOf(h, 'events')]).toEqual(before)
  })

  test('patch changes the definition, with an event naming what changed; renaming onto another name is refused', async () => {
    const field = (await create({ name: 'Temperatura', type: 'number' })).body.detail
    const res = await patch(field._key, { name: 'Temperatura forno', mandatory: true, help_text: 'In °C' })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ name: 'Temperatura forno', mandatory: true, help_text: 'In °C', type: 'number' })
    const event = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'FORM_FIELD_UPDATED').where('subject_key', '=', field._key).executeTakeFirstOrThrow()
    expect(event.data).toMatchObject({ changed: ['name', 'mandatory', 'help_text'] })
    expect((await patch(field._key, { name: 'CAMPO TEXT' })).body.detail.code).toBe('FIELD_NAME_TAKEN')
    const toChoice = await patch(field._key, { type: 'choice' })
    expect(toChoice.body.detail.code).toBe('FIELD_OPTIONS_REQUIRED')
    const ok = await patch(field._key, { type: 'choice', options: ['Bassa', 'Alta'], multiple: true })
    expect(ok.body.detail).toMatchObject({ type: 'choice', options: ['Bassa', 'Alta'], multiple: true })
    // Going to a yes/no type needs the multiple flag off too.
    expect((await patch(field._key, { type: 'boolean' })).body.detail.code).toBe('INVALID_INPUT')
    const yesNo = await patch(field._key, { type: 'boolean', multiple: false })
    expect(yesNo.body.detail).toMatchObject({ type: 'boolean', options: [], multiple: false })
    expect((await patch(crypto.randomUUID(), { name: 'x' })).status).toBe(404)
    expect((await patch('nope', { name: 'x' })).status).toBe(404)
  })

  test('a field used by an operation keeps its type and is archived instead of deleted', async () => {
    const field = (await create({ name: 'Coppia', type: 'number', mandatory: true })).body.detail
    const op = await h.request('POST', '/api/operation', {
      token: admin,
      body: { name: 'Avvitatura', default_phase_steps: [{ type: 'form', title: 'Misura', fields: [field._key] }] },
    })
    expect(op.status).toBe(201)
    expect((await h.request('GET', `/api/field/${field._key}`, { token: admin })).body.detail.in_use).toBe(true)

    const before = await countOf(h, 'events')
    const typeChange = await patch(field._key, { type: 'text' })
    expect(typeChange.status).toBe(409)
    expect(typeChange.body.detail).toEqual({
      code: 'FIELD_IN_USE',
      message: 'the field is in use, its type cannot change (operations: Avvitatura)',
      operations: ['Avvitatura'],
    })
    expect(await countOf(h, 'events')).toBe(before)
    expect((await patch(field._key, { help_text: 'Nm' })).status).toBe(200)

    const del = await h.request('DELETE', `/api/field/${field._key}`, { token: admin })
    expect(del.status).toBe(200)
    expect(del.body.detail).toEqual({ _key: field._key, deleted: false, archived: true })
    const after = (await h.request('GET', `/api/field/${field._key}`, { token: admin })).body.detail
    expect(after).toMatchObject({ active: false, in_use: true, type: 'number' })
    const active = await h.request('GET', '/api/field?active_only=true', { token: admin })
    expect(active.body.detail.map((f: { _key: string }) => f._key)).not.toContain(field._key)
    const all = await h.request('GET', '/api/field', { token: admin })
    expect(all.body.detail.map((f: { _key: string }) => f._key)).toContain(field._key)

    const restored = await patch(field._key, { active: true })
    expect(restored.body.detail.active).toBe(true)
    expect(await eventTypes(h, field._key)).toEqual(['FORM_FIELD_CREATED', 'FORM_FIELD_UPDATED', 'FORM_FIELD_ARCHIVED', 'FORM_FIELD_RESTORED'])

    // Once no operation uses it, the type may change and delete really deletes.
    await h.request('PATCH', `/api/operation/${op.body.detail._key}`, { token: admin, body: { default_phase_steps: [] } })
    expect((await patch(field._key, { type: 'text' })).status).toBe(200)
    const gone = await h.request('DELETE', `/api/field/${field._key}`, { token: admin })
    expect(gone.body.detail).toEqual({ _key: field._key, deleted: true, archived: false })
    expect((await h.request('GET', `/api/field/${field._key}`, { token: admin })).status).toBe(404)
    expect((await eventTypes(h, field._key)).at(-1)).toBe('FORM_FIELD_DELETED')
  })

  test('the admin list (tRPC): search, archive filter, sort', async () => {
    const list = async (input: unknown) => {
      const res = await h.request('GET', `/api/trpc/formFields.list?input=${encodeURIComponent(JSON.stringify(input))}`, { token: admin })
      expect(res.status).toBe(200)
      return res.body.result.data as { name: string; type: string; active: boolean }[]
    }
    const archived = (await create({ name: 'Vecchio campo', type: 'date' })).body.detail
    await patch(archived._key, { active: false })
    expect((await list({ archived_only: true })).map((f) => f.name)).toEqual(['Vecchio campo'])
    expect((await list({ active_only: true })).every((f) => f.active)).toBe(true)
    expect((await list({ search: 'vecchio' })).map((f) => f.name)).toEqual(['Vecchio campo'])
    const byType = await list({ sort: 'type', desc: true })
    expect(byType.map((f) => f.type)).toEqual([...byType.map((f) => f.type)].sort().reverse())
  })

  test('read by those who design or fill forms; changed by admins only', async () => {
    for (const scope of ['library', 'operator', 'production', 'quality', 'traceability']) {
      const user = await userWithScope(h, `u_${scope}`, scope)
      expect((await h.request('GET', '/api/field', { token: user.token })).status).toBe(200)
      if (scope === 'library') expect((await create({ name: 'Nope', type: 'text' }, user.token)).status).toBe(403)
    }
    for (const scope of ['warehouse', 'reporting']) {
      const user = await userWithScope(h, `u_${scope}`, scope)
      expect((await h.request('GET', '/api/field', { token: user.token })).status).toBe(403)
    }
  })
})
