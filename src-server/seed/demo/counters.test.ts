import { describe, expect, test } from 'bun:test'
import { templateProblem } from '../../../src/domains/counters/template'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'
import { DEMO_COUNTERS, seedDemoCounters } from './counters'

describe('demo counters', () => {
  const h = useHarness()

  test('valid templates, created once, readable with their next code', async () => {
    for (const c of DEMO_COUNTERS) expect(templateProblem(c.template, c.frequency)).toBeUndefined()
    expect(await seedDemoCounters(h.svc)).toEqual(DEMO_COUNTERS.map((c) => c.name))
    expect(await seedDemoCounters(h.svc)).toEqual([])
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const list = (await h.request('GET', '/api/counter', { token: admin })).body.detail as { name: string; next_code: string }[]
    expect(list.find((c) => c.name === 'Seriali pompe')?.next_code).toMatch(/^SN\d{4}-00001$/)
  })
})
