import type { Scope } from '../../../src/auth/scopes'

/**
 * The warehouse area's (SPEC 6). Production reads stock and movements (a work order's material,
 * readiness); admin reads positions to choose the default production and consumption positions.
 * Changes are warehouse staff's; the warehouse settings are admin's.
 */
export const WAREHOUSE_READERS = ['warehouse', 'production', 'admin'] as const satisfies readonly Scope[]
export const WAREHOUSE_EDITORS = ['warehouse'] as const satisfies readonly Scope[]
export const WAREHOUSE_SETTINGS_EDITORS = ['admin'] as const satisfies readonly Scope[]
