import { describe, expect, test } from 'bun:test'
import type { Access } from '../../auth/authorize'
import { restRoutes } from '../../rest/routes'
import { appRouter } from '../../trpc/app-router'

/**
 * Who may call the admin/general paths (settings, departments, API tokens). The permission
 * walk (src-server/permissions.test.ts) proves each declaration is enforced; this table makes
 * loosening or tightening one a visible change. Reads other areas need are open to them:
 * settings to every signed-in user (flags for production, operator, traceability, warehouse
 * screens; the hourly cost inside is null without admin, production or reporting), default
 * phase parameters to the library (copied into new phases), departments to everyone.
 */
const REST: Record<string, Access['scope']> = {
  'GET /settings': 'signed-in',
  'PATCH /settings': 'admin',
  'PUT /settings/logo': 'admin',
  'DELETE /settings/logo': 'admin',
  'GET /settings/default-phase': ['admin', 'library'],
  'PUT /settings/default-phase': 'admin',
  // Warehouse settings (inventory management, default positions) live with the movements domain.
  'GET /settings/warehouse': ['admin', 'production', 'warehouse'],
  'PATCH /settings/warehouse': ['admin'],
  'GET /department': 'signed-in',
  'POST /department': 'admin',
  'PATCH /department/{key}': 'admin',
  'DELETE /department/{key}': 'admin',
  'GET /api-token': 'admin',
  'POST /api-token': 'admin',
  'DELETE /api-token/{key}': 'admin',
}
const TRPC: Record<string, Access['scope']> = {
  'settings.get': 'signed-in',
  'settings.update': 'admin',
  'settings.defaultPhase': ['admin', 'library'],
  'settings.setDefaultPhase': 'admin',
  'settings.removeLogo': 'admin',
  'departments.list': 'signed-in',
  'departments.create': 'admin',
  'departments.update': 'admin',
  'departments.remove': 'admin',
  'apiTokens.list': 'admin',
  'apiTokens.create': 'admin',
  'apiTokens.revoke': 'admin',
}

const text = (s: Access['scope'] | undefined) => (Array.isArray(s) ? [...s].sort().join('|') : String(s))
type Procedure = { _def: { meta?: { access?: Access } } }
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures

describe('admin/general access table', () => {
  test('REST paths declare the access listed here, and no other settings/department/token path exists', () => {
    const mine = restRoutes.filter((r) => /^\/(settings|department|api-token)(\/|$)/.test(r.path))
    expect(mine.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort()).toEqual(Object.keys(REST).sort())
    for (const r of mine) {
      const label = `${r.method.toUpperCase()} ${r.path}`
      expect({ label, scope: text(r.access.scope) }).toEqual({ label, scope: text(REST[label]) })
    }
  })

  test('tRPC procedures declare the access listed here', () => {
    const mine = Object.keys(procedures).filter((n) => /^(settings|departments|apiTokens)\./.test(n))
    expect(mine.sort()).toEqual(Object.keys(TRPC).sort())
    for (const name of mine) {
      expect({ name, scope: text(procedures[name]?._def.meta?.access?.scope) }).toEqual({ name, scope: text(TRPC[name]) })
    }
  })
})
