import type { Scope } from '../../../src/auth/scopes'

/** Who reads products: the library, and the areas that work with them (orders, jobs, quality, traceability, stock, admin). */
export const PRODUCT_READERS = ['library', 'production', 'operator', 'quality', 'traceability', 'warehouse', 'admin'] as const satisfies readonly Scope[]
/** Who changes products, their documents, files and tags. */
export const PRODUCT_WRITERS = ['library'] as const satisfies readonly Scope[]
