import { beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'
import { DEMO_FIELDS, DEMO_ISSUE_TYPES, DEMO_OPERATIONS, seedDemoLibraries } from './libraries'

describe('demo libraries seed', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })

  test('creates fields of every type, operations with steps and issue types once', async () => {
    const created = await seedDemoLibraries(h.svc)
    expect(created).toHaveLength(DEMO_FIELDS.length + DEMO_OPERATIONS.length + DEMO_ISSUE_TYPES.length)
    expect(await seedDemoLibraries(h.svc)).toEqual([])

    const fields = (await h.request('GET', '/api/field', { token: admin })).body.detail as { _key: string; type: string }[]
    expect(new Set(fields.map((f) => f.type)).size).toBe(8)
    const operations = (await h.request('GET', '/api/operation', { token: admin })).body.detail as {
      name: string
      default_phase_steps: { type: string; fields: string[] }[]
    }[]
    expect(operations.map((o) => o.name)).toEqual(['Collaudo', 'Imballaggio', 'Montaggio'])
    const fieldKeys = new Set(fields.map((f) => f._key))
    for (const o of operations) {
      expect(o.default_phase_steps.length).toBe(DEMO_OPERATIONS.find((d) => d.name === o.name)!.steps.length)
      for (const s of o.default_phase_steps.filter((s) => s.type === 'form')) {
        expect(s.fields.length).toBeGreaterThan(0)
        expect(s.fields.every((k) => fieldKeys.has(k))).toBe(true)
      }
    }
    const types = (await h.request('GET', '/api/issue-type', { token: admin })).body.detail as { code: string; close_within: number; critical: boolean }[]
    expect(types.find((t) => t.code === 'GM')).toMatchObject({ close_within: 4, critical: true })
    // The seeded fields are in use: their type is fixed like any other.
    const used = fields.find((f) => f.type === 'number')!
    expect((await h.request('PATCH', `/api/field/${used._key}`, { token: admin, body: { type: 'text' } })).status).toBe(409)
  })

  test('leaves what an admin renamed or removed alone', async () => {
    const op = (await h.request('GET', '/api/operation', { token: admin })).body.detail.find((o: { name: string }) => o.name === 'Collaudo')
    await h.request('DELETE', `/api/operation/${op._key}`, { token: admin })
    const gm = (await h.request('GET', '/api/issue-type', { token: admin })).body.detail.find((t: { code: string }) => t.code === 'GM')
    await h.request('PATCH', `/api/issue-type/${gm._key}`, { token: admin, body: { code: 'gm', name: 'Guasto' } })
    expect(await seedDemoLibraries(h.svc)).toEqual(['operation "Collaudo"'])
    const again = (await h.request('GET', `/api/issue-type/${gm._key}`, { token: admin })).body.detail
    expect(again).toMatchObject({ code: 'gm', name: 'Guasto' })
  })
})
