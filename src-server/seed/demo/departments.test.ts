import { describe, expect, test } from 'bun:test'
import { useHarness } from '../../test/harness'
import { DEMO_COMPANY_NAME, DEMO_DEPARTMENTS, seedDemoDepartments } from './departments'

describe('demo departments seed', () => {
  const h = useHarness()

  test('creates the departments and company name once; running again changes nothing', async () => {
    expect(await seedDemoDepartments(h.svc)).toEqual(DEMO_DEPARTMENTS.map((d) => d.code))
    expect(await seedDemoDepartments(h.svc)).toEqual([])
    const rows = await h.svc.db.selectFrom('departments').select(['code', 'name']).orderBy('code').execute()
    expect(rows).toEqual(DEMO_DEPARTMENTS.map((d) => ({ code: d.code, name: d.name })))
    const name = await h.svc.db.selectFrom('settings').select('value').where('key', '=', 'company_name').executeTakeFirst()
    expect(name?.value).toBe(DEMO_COMPANY_NAME)
  })

  test('never overwrites what an admin changed', async () => {
    await h.svc.db.updateTable('settings').set({ value: JSON.stringify('Rossi S.p.A.') }).where('key', '=', 'company_name').execute()
    await h.svc.db.deleteFrom('departments').where('code', '=', 'MAG').execute()
    await h.svc.db.updateTable('departments').set({ code: 'asm' }).where('code', '=', 'ASM').execute()
    expect(await seedDemoDepartments(h.svc)).toEqual(['MAG'])
    const name = await h.svc.db.selectFrom('settings').select('value').where('key', '=', 'company_name').executeTakeFirst()
    expect(name?.value).toBe('Rossi S.p.A.')
    expect((await h.svc.db.selectFrom('departments').select('code').execute()).length).toBe(4)
  })
})
