import { beforeAll, describe, expect, test } from 'bun:test'
import { useHarness } from '../../test/harness'
import { createSerial } from '../serials/service'
import { recordPdf } from './record-pdf'
import { serialRecord, workOrderRecord } from './service'
import { makeRecordWorld, pdfText, type RecordWorld } from './test-fixtures'

describe('history record (service, real database)', () => {
  const h = useHarness()
  let w: RecordWorld

  beforeAll(async () => {
    w = await makeRecordWorld(h, 'dhrsvc')
  }, 60_000)

  test('a work order by code: product, revision, quantities, both batches with steps, values, who and when', async () => {
    const r = await workOrderRecord(h.svc, w.workOrderCode)
    expect(r.kind).toBe('work_order')
    expect(r.serial).toBeNull()
    expect(r.product).toMatchObject({ _key: w.productKey, code: w.productCode })
    expect(r.work_order).toMatchObject({ _key: w.workOrderKey, code: w.workOrderCode, status: 'completed' })
    expect(r.revision.number).toBe(1)
    expect(r.quantities).toEqual({ planned: 2, done: 2, scrapped: 0 })
    expect(r.phases).toHaveLength(1)
    const job = r.phases[0]!.jobs[0]!
    expect(job.operator?.name).toBe('Mario Rossi')
    expect(job.batches.map((b) => [b.number, b.qt_total, b.status])).toEqual([
      [1, 1, 'completed'],
      [2, 1, 'completed'],
    ])
    const [first, second] = job.batches as [(typeof job.batches)[0], (typeof job.batches)[0]]
    expect(first._key).toBe(w.batches[0]!)
    expect(first.opened_by?.name).toBe('Mario Rossi')
    expect(first.completed_by?.name).toBe('Mario Rossi')
    expect(first.steps.map((s) => [s.position, s.title, s.text, s.done])).toEqual([
      [0, 'Controllo visivo', 'Do step 1', true],
      [1, 'Serraggio viti', 'Do step 2', true],
    ])
    expect(first.steps[1]!.values).toEqual([{ field_key: expect.any(String), name: 'Coppia dhrsvc', type: 'number', value: 12.5 }])
    expect(second.steps[1]!.values[0]!.value).toBe(13)
    expect(first.steps[1]!.done_by).toEqual({ _key: w.op.key, name: 'Mario Rossi' })
    expect(first.steps[1]!.done_at).toBe(h.clock.now().getTime())
    expect(first.consumed).toEqual([{ item_key: expect.any(String), item_code: w.componentProduct, quantity: 1 }])
  })

  test('genealogy, issues and movements of the work order', async () => {
    const r = await workOrderRecord(h.svc, w.workOrderKey)
    expect(r.serials.produced.map((s) => s.code)).toEqual([w.serialCode])
    expect(r.serials.consumed).toMatchObject([{ code: w.componentCode, parent_code: w.serialCode, batch_number: 1 }])
    expect(r.issues).toMatchObject([{ code: w.issueCode, title: 'Vite spanata', state: 'closed', batch_key: w.batches[0]!, closed_by_name: expect.any(String) }])
    expect(r.issues[0]!.closed_at).not.toBeNull()
    expect(r.movements).toMatchObject([{ type: 'load', serial: w.componentCode, batch_key: w.batches[0]!, work_order_key: w.workOrderKey }])
  })

  test('a serial by code: the serial with its components, and only the batch that made it', async () => {
    const r = await serialRecord(h.svc, w.serialCode)
    expect(r.kind).toBe('serial')
    expect(r.serial).toMatchObject({ _key: w.serialKey, code: w.serialCode, batch_number: 1, work_order_code: w.workOrderCode })
    expect(r.serial!.genealogy.map((g) => [g.depth, g.code])).toEqual([
      [0, w.serialCode],
      [1, w.componentCode],
    ])
    expect(r.phases[0]!.jobs[0]!.batches.map((b) => b._key)).toEqual([w.batches[0]!])
    expect(r.serials.consumed.map((c) => c.code)).toEqual([w.componentCode])
    expect(r.issues.map((i) => i.code)).toEqual([w.issueCode])
    expect(r.movements).toHaveLength(1)
    expect((await serialRecord(h.svc, w.serialKey)).serial?.code).toBe(w.serialCode)
  })

  test('a serial recorded outside any batch of its work order tells the whole work order', async () => {
    const key = await h.svc.db.transaction().execute((trx) => createSerial(trx, w.op.actor, { code: 'DHRSVC-LOOSE-1', product_id: w.productKey, work_order_id: w.workOrderKey }, h.clock.now()))
    const r = await serialRecord(h.svc, key)
    expect(r.serial?.code).toBe('DHRSVC-LOOSE-1')
    expect(r.phases[0]!.jobs[0]!.batches.map((b) => b._key)).toEqual(w.batches)
    expect(r.serials.produced.map((s) => s.code)).toEqual(['DHRSVC-LOOSE-1'])
  })

  test('unknown work orders and serials are 404 with a message; a serial made outside a work order is 422', async () => {
    for (const call of [() => workOrderRecord(h.svc, 'WO999999'), () => serialRecord(h.svc, 'NO-SUCH-SERIAL')]) {
      const err = (await call().catch((e) => e)) as { status: number; appCode: string; message: string }
      expect(err.status).toBe(404)
      expect(err.appCode).toBe('NOT_FOUND')
      expect(err.message).toContain('not found')
    }
    const loose = (await serialRecord(h.svc, w.componentCode).catch((e) => e)) as { status: number; appCode: string }
    expect([loose.status, loose.appCode]).toEqual([422, 'SERIAL_WITHOUT_WORK_ORDER'])
  })

  test('the PDF holds the product, revision, steps, values and who, in Italian and in English', async () => {
    const record = await workOrderRecord(h.svc, w.workOrderKey)
    const it = await pdfText(await recordPdf(record, 'it'))
    for (const text of ['Registro di produzione', w.productCode, w.workOrderCode, 'Revisione', 'Controllo visivo', 'Serraggio viti', 'Coppia dhrsvc: 12,5', 'Coppia dhrsvc: 13', 'Mario Rossi', w.serialCode, w.componentCode, w.issueCode, 'Vite spanata', 'Pagina 1 di']) {
      expect(it).toContain(text)
    }
    const en = await pdfText(await recordPdf(record, 'en'))
    for (const text of ['Production record', 'Revision', 'Coppia dhrsvc: 12.5', 'Mario Rossi', 'Material movements', 'Page 1 of']) expect(en).toContain(text)
    expect(en).not.toContain('Registro di produzione')
  })
})
