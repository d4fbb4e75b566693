import type { BatchPiece, BatchSerials } from '../../src/domains/serials/batch-serials'
import { isEmptyValue } from '../../src/domains/products/metadata'
import type { QueuedWrite } from './writes'

/**
 * The batch's pieces as the operator declared them: the server's last answer with the serial
 * declarations still kept on the device laid over it, in order (overlay.ts does the same for the
 * work session). A kept piece shows the codes as typed; with a counter its number comes when the
 * server answers. Whether it is declared is judged here as the server would on the shape alone
 * (its serial, every component slot, the mandatory serial fields): the server still checks the
 * codes themselves when the declaration is sent, and a refusal is listed with its reason.
 */
export function serialsWithPending(view: BatchSerials, pending: readonly QueuedWrite[]): BatchSerials {
  const kept = pending.filter((w) => w.kind === 'serial-links' && w.input.batch_key === view.batch_key)
  if (kept.length === 0) return view
  const pieces = new Map(view.pieces.map((p) => [p.piece, p]))
  for (const w of kept) {
    if (w.kind !== 'serial-links') continue
    for (const input of w.input.pieces) {
      const before = pieces.get(input.piece)
      if (!before) continue
      const links = (input.links ?? []).map((l, n) => ({
        link_key: `kept-${w.seq}-${input.piece}-${n}`,
        component_key: l.component_key,
        serial_key: '',
        code: l.child_serial_code,
        product_code: '',
        state: 'temporary' as const,
      }))
      const piece: BatchPiece = {
        ...before,
        code: input.serial_code ?? before.code,
        links: input.links ? links : before.links,
        data: input.data ?? before.data,
      }
      pieces.set(input.piece, { ...piece, declared: declaredShape(view, piece) })
    }
  }
  const all = view.pieces.map((p) => pieces.get(p.piece)!)
  return { ...view, pieces: all, complete: all.every((p) => p.declared) }
}

function declaredShape(view: BatchSerials, p: BatchPiece): boolean {
  const hasSerial = view.counter_name !== null || !!p.code
  const slotsFilled = view.components.every((c) => p.links.filter((l) => l.component_key === c.component_key).length >= (p.piece === 1 ? c.first_piece_slots : c.piece_slots))
  const fieldsFilled = view.serial_fields.every((f) => !f.mandatory || !isEmptyValue(p.data[f._key]))
  return hasSerial && slotsFilled && fieldsFilled
}
