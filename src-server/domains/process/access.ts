import type { Scope } from '../../../src/auth/scopes'

/**
 * Who reads processes and boms: the library that writes them and the areas that work from them
 * (production plans jobs by phase, operators run the steps, quality, traceability and the
 * warehouse follow components).
 */
export const PROCESS_READERS = ['library', 'production', 'operator', 'quality', 'traceability', 'warehouse'] as const satisfies readonly Scope[]
