/** Permission words (SPEC section 6). A user's scope is these words separated by spaces. */
export const SCOPES = [
  'admin',
  'library',
  'operator',
  'production',
  'quality',
  'traceability',
  'reporting',
  'warehouse',
  // Issue 22: an auditor who reads the audit trail and checks the event chain, nothing else.
  'audit',
] as const
export type Scope = (typeof SCOPES)[number]

export const isScope = (word: string): word is Scope => (SCOPES as readonly string[]).includes(word)

/** Permission is tested by pattern match against the scope string: a whole word must match (any one of several). */
export function hasScope(scope: string, wanted: Scope | readonly Scope[]): boolean {
  if (typeof wanted !== 'string') return wanted.some((w) => hasScope(scope, w))
  return new RegExp(`(^|\\s)${wanted}(\\s|$)`).test(scope)
}

export function parseScope(scope: string): Scope[] {
  return scope.split(/\s+/).filter(isScope)
}

export function formatScope(scopes: readonly Scope[]): string {
  return SCOPES.filter((s) => scopes.includes(s)).join(' ')
}

/** Named home destinations, in the priority order used to choose a default homepage. */
export const HOME_PAGES = [
  { name: 'operatorRoot', scope: 'operator', path: '/app/operator' },
  { name: 'productionRoot', scope: 'production', path: '/app/production' },
  { name: 'libraryRoot', scope: 'library', path: '/app/library' },
  { name: 'adminPanel', scope: 'admin', path: '/app/admin' },
  { name: 'qualityRoot', scope: 'quality', path: '/app/quality' },
  { name: 'traceabilityRoot', scope: 'traceability', path: '/app/traceability' },
  { name: 'reportRoot', scope: 'reporting', path: '/app/report' },
  { name: 'warehouseRoot', scope: 'warehouse', path: '/app/warehouse' },
  { name: 'auditRoot', scope: 'audit', path: '/app/audit' },
] as const satisfies readonly { name: string; scope: Scope; path: string }[]
export type HomePageName = (typeof HOME_PAGES)[number]['name']
export const HOME_PAGE_NAMES = HOME_PAGES.map((h) => h.name) as [HomePageName, ...HomePageName[]]

/**
 * The homepage path for a user: the `home_page` preference when the user may open it,
 * otherwise the first destination by scope priority; null when nothing matches.
 */
export function homePagePath(scope: string, preferred?: string | null): string | null {
  const allowed = HOME_PAGES.filter((h) => hasScope(scope, h.scope))
  const chosen = allowed.find((h) => h.name === preferred) ?? allowed[0]
  return chosen?.path ?? null
}
