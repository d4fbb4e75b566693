import { beforeAll, describe, expect, test } from 'bun:test'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, signIn, userWithScope, useHarness } from '../../test/harness'
import { createField, eventsOf } from '../process/test-helpers'

describe('serial fields', () => {
  const h = useHarness()
  let admin: string
  let operator: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    operator = (await userWithScope(h, 'op.serial', 'operator')).token
  })
  const create = (body: unknown, token = admin) => h.request('POST', '/api/serial-field', { token, body })
  const list = (token = admin) => h.request('GET', '/api/serial-field', { token })
  const keysOf = (res: { body: any }) => res.body.detail.map((f: { _key: string }) => f._key)

  test('a form field becomes a serial field with its definition, mandatory flag and place; reorder, patch, delete; events', async () => {
    const lot = await createField(h, admin, 'Lotto fornitore')
    const colour = await h.request('POST', '/api/field', { token: admin, body: { name: 'Colore', type: 'choice', options: ['Rosso', 'Blu'], help_text: 'Colore della scocca' } })
    const date = await createField(h, admin, 'Data collaudo', { type: 'date' })

    const first = await create({ field_key: lot, mandatory: true })
    expect(first.status).toBe(201)
    expect(first.body.detail).toMatchObject({ _key: lot, position: 1, mandatory: true, name: 'Lotto fornitore', type: 'text', field_active: true })
    expect((await create({ field_key: colour.body.detail._key })).body.detail).toMatchObject({
      position: 2,
      mandatory: false,
      type: 'choice',
      options: ['Rosso', 'Blu'],
      help_text: 'Colore della scocca',
    })
    expect((await create({ field_key: date })).status).toBe(201)
    expect(keysOf(await list())).toEqual([lot, colour.body.detail._key, date])
    // Those who write serials read the list (REST and tRPC); the form field now counts as in use.
    expect(keysOf(await list(operator))).toEqual([lot, colour.body.detail._key, date])
    expect((await trpcCall(h, 'serialFields.get', 'query', { key: date }, { token: operator })).body.result.data).toMatchObject({ _key: date, type: 'date' })
    expect((await h.request('GET', `/api/field/${lot}`, { token: admin })).body.detail.in_use).toBe(true)

    const reordered = await h.request('PUT', '/api/serial-field/order', { token: admin, body: { field_keys: [date, lot, colour.body.detail._key] } })
    expect(reordered.status).toBe(200)
    expect(reordered.body.detail.map((f: any) => [f._key, f.position])).toEqual([
      [date, 1],
      [lot, 2],
      [colour.body.detail._key, 3],
    ])

    const patched = await h.request('PATCH', `/api/serial-field/${date}`, { token: admin, body: { mandatory: true } })
    expect(patched.body.detail).toMatchObject({ _key: date, mandatory: true })

    const deleted = await h.request('DELETE', `/api/serial-field/${lot}`, { token: admin })
    expect(deleted.body.detail).toEqual({ _key: lot, deleted: true })
    expect((await list()).body.detail.map((f: any) => [f._key, f.position])).toEqual([
      [date, 1],
      [colour.body.detail._key, 2],
    ])
    // The form field stays in the library, free again.
    expect((await h.request('GET', `/api/field/${lot}`, { token: admin })).body.detail).toMatchObject({ active: true, in_use: false })
    expect((await h.request('GET', `/api/serial-field/${lot}`, { token: admin })).status).toBe(404)

    const types = ['SERIAL_FIELD_CREATED', 'SERIAL_FIELDS_REORDERED', 'SERIAL_FIELD_UPDATED', 'SERIAL_FIELD_DELETED']
    expect(await Promise.all(types.map(async (t) => (await eventsOf(h, t)).length))).toEqual([3, 1, 1, 1])
    const update = (await eventsOf(h, 'SERIAL_FIELD_UPDATED'))[0]!
    expect(update.data).toEqual({ changed: ['mandatory'], changes: { mandatory: { from: false, to: true } } })
  })

  test('refusals: unknown, archived, already a serial field, wrong order, bad input, not admin; nothing is written', async () => {
    const weight = await createField(h, admin, 'Peso')
    const archived = await createField(h, admin, 'Vecchio campo')
    await h.request('PATCH', `/api/field/${archived}`, { token: admin, body: { active: false } })
    expect((await create({ field_key: weight })).status).toBe(201)
    const fresh = await createField(h, admin, 'Nuovo')
    const current = keysOf(await list())
    const before = await tableCounts(h)

    const cases: [unknown, number, string][] = [
      [{ field_key: MISSING_UUID }, 400, 'UNKNOWN_FIELD'],
      [{ field_key: archived }, 400, 'FIELD_ARCHIVED'],
      [{ field_key: weight }, 409, 'SERIAL_FIELD_TAKEN'],
      [{ field_key: 'peso' }, 400, 'INVALID_INPUT'],
      [{ field_key: weight, mandatory: 'yes' }, 400, 'INVALID_INPUT'],
      [{ field_key: weight, type: 'text' }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code] of cases) {
      const res = await create(body)
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
    }
    for (const field_keys of [current.slice(1), [...current, MISSING_UUID], [...current, current[0]]]) {
      const res = await h.request('PUT', '/api/serial-field/order', { token: admin, body: { field_keys } })
      expect({ field_keys, status: res.status, code: appCode(res.body) }).toEqual({ field_keys, status: 400, code: 'SERIAL_FIELD_ORDER_MISMATCH' })
    }
    expect((await h.request('PATCH', `/api/serial-field/${MISSING_UUID}`, { token: admin, body: { mandatory: true } })).status).toBe(404)
    expect((await h.request('DELETE', `/api/serial-field/${MISSING_UUID}`, { token: admin })).status).toBe(404)
    expect((await h.request('GET', '/api/serial-field/nope', { token: admin })).status).toBe(404)
    expect((await create({ field_key: fresh }, operator)).status).toBe(403)
    expect((await h.request('DELETE', `/api/serial-field/${weight}`, { token: operator })).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
    expect(keysOf(await list())).toEqual(current)
  })

  test('a form field that serials carry keeps its type and is archived instead of deleted', async () => {
    const serialNo = await createField(h, admin, 'Matricola motore')
    expect((await create({ field_key: serialNo })).status).toBe(201)
    const retype = await h.request('PATCH', `/api/field/${serialNo}`, { token: admin, body: { type: 'number' } })
    expect({ status: retype.status, code: appCode(retype.body) }).toEqual({ status: 409, code: 'FIELD_IN_USE' })
    expect(retype.body.detail.message).toContain('serial fields')
    const removed = await h.request('DELETE', `/api/field/${serialNo}`, { token: admin })
    expect(removed.body.detail).toEqual({ _key: serialNo, deleted: false, archived: true })
    expect((await h.request('GET', `/api/serial-field/${serialNo}`, { token: admin })).body.detail).toMatchObject({ field_active: false, type: 'text' })
  })
})
