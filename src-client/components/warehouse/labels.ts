import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { MovementStatus, MovementType } from '../../../src/domains/movements/schemas'
import { i18n } from '../../lib/i18n'

export const MOVEMENT_TYPE_LABELS: Record<MovementType, MessageDescriptor> = {
  load: msg`Carico`,
  unload: msg`Scarico`,
  transfer: msg`Trasferimento`,
  production: msg`Produzione`,
  consumption: msg`Consumo`,
  adjustment: msg`Rettifica`,
}

export const MOVEMENT_STATUS_LABELS: Record<MovementStatus, MessageDescriptor> = {
  planned: msg`Pianificato`,
  confirmed: msg`Confermato`,
  cancelled: msg`Annullato`,
}

export const MOVEMENT_STATUS_COLORS: Record<MovementStatus, string> = { planned: 'blue', confirmed: 'green', cancelled: 'gray' }

/** A quantity in the user's locale, up to 4 decimals, no grouping (as typed back into a field). */
export const formatQuantity = (q: number | null | undefined) =>
  q === null || q === undefined ? '' : new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 4, useGrouping: false }).format(q)

/** "M-123": how a movement is named on screens. */
export const movementName = (n: number) => `M-${n}`
