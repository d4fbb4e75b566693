import { describe, expect, test } from 'bun:test'
import type { BatchSerials } from '../../src/domains/serials/batch-serials'
import { serialsWithPending } from './serials-overlay'
import type { QueuedWrite } from './writes'

const FIELD = '6f1c2a52-1111-4d4e-9f00-000000000001'
const view = (counter: string | null): BatchSerials => ({
  batch_key: 'b1',
  qt_total: 2,
  traceability_level: 'complete',
  required: true,
  counter_name: counter,
  serial_step_key: 's2',
  components: [{ component_key: 'c1', item_key: 'i1', item_code: 'MOT', item_description: '', quantity: 1, quantity_per: 'item', first_piece_slots: 1, piece_slots: 1 }],
  serial_fields: [{ _key: FIELD, name: 'Pressione', type: 'number', options: [], multiple: false, mandatory: true, help_text: '' }],
  pieces: [1, 2].map((piece) => ({ piece, serial_key: null, code: null, state: null, data: {}, links: [], declared: false })),
  complete: false,
})
const kept = (seq: number, batch: string, pieces: unknown[]): QueuedWrite =>
  ({ kind: 'serial-links', seq, user_key: 'u', job_key: 'j', made_at: 0, label: {}, input: { batch_key: batch, pieces, idempotency_key: 'k' } }) as QueuedWrite

describe('serial declarations kept on the device, laid over the batch', () => {
  test('a kept piece shows its codes; declared when its shape is complete; other batches and kinds change nothing', () => {
    const out = serialsWithPending(view('Alberi'), [
      kept(1, 'b1', [{ piece: 1, links: [{ component_key: 'c1', child_serial_code: 'MOT-1' }], data: { [FIELD]: 6 } }]),
      kept(2, 'b1', [{ piece: 2, links: [{ component_key: 'c1', child_serial_code: 'MOT-2' }] }]),
      kept(3, 'other', [{ piece: 2, links: [], data: { [FIELD]: 1 } }]),
    ])
    expect(out.pieces.map((p) => [p.links.map((l) => l.code), p.declared])).toEqual([
      [['MOT-1'], true],
      // The mandatory serial field is still empty.
      [['MOT-2'], false],
    ])
    expect(out.complete).toBe(false)
  })

  test('without a counter the typed serial is needed; a later declaration of the same piece replaces the earlier', () => {
    const link = [{ component_key: 'c1', child_serial_code: 'MOT-1' }]
    const out = serialsWithPending(view(null), [
      kept(1, 'b1', [{ piece: 1, links: link, data: { [FIELD]: 6 } }]),
      kept(2, 'b1', [{ piece: 1, serial_code: 'ALB-9', links: [{ component_key: 'c1', child_serial_code: 'MOT-7' }], data: { [FIELD]: 6 } }]),
      kept(3, 'b1', [{ piece: 2, serial_code: 'ALB-10', links: link, data: { [FIELD]: 5 } }]),
    ])
    expect(out.pieces.map((p) => [p.code, p.links.map((l) => l.code), p.declared])).toEqual([
      ['ALB-9', ['MOT-7'], true],
      ['ALB-10', ['MOT-1'], true],
    ])
    expect(out.complete).toBe(true)
    const none = view(null)
    expect(serialsWithPending(none, [])).toBe(none)
  })
})
