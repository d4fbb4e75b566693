import { sql } from 'kysely'
import type { Services } from '../../context'

export const DEMO_COMPANY_NAME = 'Officine Meccaniche Demo S.r.l.'

export const DEMO_DEPARTMENTS = [
  { code: 'ASM', name: 'Assemblaggio' },
  { code: 'COL', name: 'Collaudo' },
  { code: 'IMB', name: 'Imballaggio' },
  { code: 'MAG', name: 'Magazzino' },
] as const

/**
 * Demo departments and company name. Idempotent: a department whose code exists (any case)
 * is left alone, and a company name already set (by an admin, say) is never overwritten.
 */
export async function seedDemoDepartments(svc: Services): Promise<string[]> {
  const existing = new Set((await svc.db.selectFrom('departments').select('code').execute()).map((d) => d.code.toLowerCase()))
  const missing = DEMO_DEPARTMENTS.filter((d) => !existing.has(d.code.toLowerCase()))
  if (missing.length) {
    await svc.db
      .insertInto('departments')
      .values(missing.map((d) => ({ code: d.code, name: d.name, created_at: svc.clock.now() })))
      .onConflict((oc) => oc.expression(sql`lower(code)`).doNothing())
      .execute()
  }
  await svc.db
    .insertInto('settings')
    .values({ key: 'company_name', value: JSON.stringify(DEMO_COMPANY_NAME) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
  return missing.map((d) => d.code)
}
