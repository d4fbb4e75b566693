import { describe, expect, test } from 'bun:test'
import { adminToken } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { changesOf, editData } from './changes'

describe('old and new values of edits', () => {
  test('changesOf: only what differs; jsonb written as text compares as a value; dates as ISO text', () => {
    const before = { name: 'A', steps: [{ a: 1 }], at: new Date('2026-01-01T00:00:00Z'), note: null }
    expect(changesOf(before, { name: 'A', steps: JSON.stringify([{ a: 1 }]) })).toEqual({})
    expect(changesOf(before, { name: 'B', steps: JSON.stringify([{ a: 2 }]), at: new Date('2026-01-02T00:00:00Z'), note: 'x' })).toEqual({
      name: { from: 'A', to: 'B' },
      steps: { from: [{ a: 1 }], to: [{ a: 2 }] },
      at: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' },
      note: { from: null, to: 'x' },
    })
    // Only the fields named, when named.
    expect(changesOf(before, { name: 'B', note: 'x' }, ['note'])).toEqual({ note: { from: null, to: 'x' } })
    expect(editData({ name: { from: 'A', to: 'B' } }, { code: 'P1' })).toEqual({ code: 'P1', changed: ['name'], changes: { name: { from: 'A', to: 'B' } } })
  })

  const h = useHarness()

  /** Each edit use case of the library and admin areas, through REST: created, edited, and its event read back. */
  const cases: {
    what: string
    create: [string, Record<string, unknown>]
    patch: Record<string, unknown>
    method?: 'PUT'
    event: string
    changes: Record<string, unknown>
  }[] = [
    {
      what: 'product',
      create: ['/api/product', { code: 'CH-P1', description: 'Vite' }],
      method: 'PUT',
      patch: { code: 'CH-P1', description: 'Vite M6' },
      event: 'PRODUCT_UPDATED',
      changes: { description: { from: 'Vite', to: 'Vite M6' } },
    },
    { what: 'operation', create: ['/api/operation', { name: 'Taglio CH' }], patch: { name: 'Taglio laser CH' }, event: 'OPERATION_UPDATED', changes: { name: { from: 'Taglio CH', to: 'Taglio laser CH' } } },
    { what: 'field', create: ['/api/field', { name: 'Coppia CH', type: 'number' }], patch: { name: 'Coppia di serraggio CH', mandatory: true }, event: 'FORM_FIELD_UPDATED', changes: { name: { from: 'Coppia CH', to: 'Coppia di serraggio CH' }, mandatory: { from: false, to: true } } },
    { what: 'issue-type', create: ['/api/issue-type', { code: 'CH1', name: 'Guasto CH', link_type: 'generic' }], patch: { name: 'Guasto macchina CH', close_within: 4 }, event: 'ISSUE_TYPE_UPDATED', changes: { name: { from: 'Guasto CH', to: 'Guasto macchina CH' }, close_within: { from: 0, to: 4 } } },
    { what: 'counter', create: ['/api/counter', { name: 'Matricole CH', template: 'CH{#####}' }], patch: { name: 'Matricole CH2' }, event: 'COUNTER_UPDATED', changes: { name: { from: 'Matricole CH', to: 'Matricole CH2' } } },
    { what: 'printer', create: ['/api/printer', { name: 'Stampante CH', host: 'ch.local', protocol: 'raw' }], patch: { name: 'Stampante CH linea 2' }, event: 'PRINTER_UPDATED', changes: { name: { from: 'Stampante CH', to: 'Stampante CH linea 2' } } },
    {
      what: 'flow',
      create: ['/api/flow', { name: 'Flusso CH', url: 'https://erp.example/hook', event_types: ['JOB_STARTED'], secret: 'secret-secret-1234' }],
      patch: { url: 'https://erp.example/hook2', secret: 'another-secret-5678' },
      event: 'FLOW_UPDATED',
      changes: { url: { from: 'https://erp.example/hook', to: 'https://erp.example/hook2' }, secret: { from: '••••••', to: '••••••' } },
    },
  ]

  for (const c of cases) {
    test(`${c.what}: the edit event carries the old and new value of each changed field`, async () => {
      const admin = await adminToken(h)
      const created = await h.request('POST', c.create[0], { token: admin, body: c.create[1] })
      expect(created.status).toBe(201)
      const key = created.body.detail._key as string
      const patched = await h.request(c.method ?? 'PATCH', `${c.create[0]}/${key}`, { token: admin, body: c.patch })
      expect(patched.status).toBe(200)
      const event = await h.svc.db
        .selectFrom('events')
        .select('data')
        .where('event_type', '=', c.event)
        .where('subject_key', '=', key)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(event.data.changes).toEqual(c.changes)
      expect(event.data.changed).toEqual(Object.keys(c.changes))
      // And the audit trail shows them.
      const trail = await h.request('GET', `/api/audit-trail?code=${key}&event_type=${c.event}`, { token: admin })
      expect(trail.status).toBe(200)
      expect(trail.body.detail.rows[0].changes).toEqual(c.changes)
    })
  }
})
