import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { Scope } from '../../src/auth/scopes'
import { AUDIT_READERS } from '../../src/domains/audit/schemas'

export type Area = { id: string; path: string; scope: Scope | readonly Scope[]; title: MessageDescriptor }

/** Top-level areas: each has the scope equal to its name (SPEC 6; the audit trail: any of its readers) and its screen title. */
export const AREAS = {
  operator: { id: 'operator', path: '/app/operator', scope: 'operator', title: msg`Operatore` },
  production: { id: 'production', path: '/app/production', scope: 'production', title: msg`Produzione` },
  library: { id: 'library', path: '/app/library', scope: 'library', title: msg`Libreria` },
  quality: { id: 'quality', path: '/app/quality', scope: 'quality', title: msg`Qualità` },
  traceability: { id: 'traceability', path: '/app/traceability', scope: 'traceability', title: msg`Tracciabilità` },
  warehouse: { id: 'warehouse', path: '/app/warehouse', scope: 'warehouse', title: msg`Magazzino` },
  report: { id: 'report', path: '/app/report', scope: 'reporting', title: msg`Rapporti` },
  admin: { id: 'admin', path: '/app/admin', scope: 'admin', title: msg`Impostazioni` },
  audit: { id: 'audit', path: '/app/audit', scope: AUDIT_READERS, title: msg`Registro eventi` },
} as const satisfies Record<string, Area>

/** SPEC 2: the default screen title. */
export const DEFAULT_TITLE = 'progress'
