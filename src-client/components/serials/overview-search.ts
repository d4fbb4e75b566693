import type { SerialState } from '../../../src/domains/serials/schemas'

/** The serials overview's filters, kept in its URL. */
export type SerialsSearch = { q?: string; product?: string; wo?: string; phase?: string; state?: SerialState; from?: string; to?: string }

// The overview's last filters, so that "back" from a serial returns to the same list.
let last: SerialsSearch = {}
export const rememberSerialsSearch = (search: SerialsSearch) => {
  last = search
}
export const lastSerialsSearch = (): SerialsSearch => last
