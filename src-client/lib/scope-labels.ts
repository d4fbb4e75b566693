import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { Scope } from '../../src/auth/scopes'

/** Labels of the permission words, next to checkboxes and on badges (users, API tokens). */
export const SCOPE_LABELS: Record<Scope, MessageDescriptor> = {
  admin: msg`Amministrazione`,
  library: msg`Libreria`,
  operator: msg`Operatore`,
  production: msg`Produzione`,
  quality: msg`Qualità`,
  traceability: msg`Tracciabilità`,
  reporting: msg`Rapporti`,
  warehouse: msg`Magazzino`,
  audit: msg`Registro eventi`,
}
