import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { HistoryRecord } from '../../../src/domains/history-record/schemas'
import type { SignatureView } from '../../../src/domains/signatures/schemas'
import { useHarness } from '../../test/harness'
import { actOnIssue } from '../issues/service'
import { createSerial } from '../serials/service'
import { recordPdf } from './record-pdf'
import { serialRecord, workOrderRecord } from './service'
import { makeRecordWorld, pdfText, type RecordWorld, type SignedWorld, signRecordWorld } from './test-fixtures'

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
  /**
   * Every kind of signature the settings can require, on a second work order of the same plant:
   * the revision's release, a job correction, a critical issue's closing, a serial correction
   * and a movement's revert. Each is in the JSON under its record and printed in the PDF as the
   * screens write it; once what it signed changes, it says so.
   */
  describe('signatures of every kind', () => {
    let s: RecordWorld
    let signed: SignedWorld
    const DATE = String.raw`\d{4}/\d{2}/\d{2} \d{2}:\d{2}`
    const line = (text: string) => new RegExp(text.replaceAll('DATE', DATE))
    const flat = async (record: HistoryRecord, lang: 'it' | 'en') => (await pdfText(await recordPdf(record, lang))).replace(/\s+/g, ' ')
    const briefly = (sigs: readonly SignatureView[]) => sigs.map((x) => [x.subject_type, x.meaning, x.role, x.full_name, x.valid])

    beforeAll(async () => {
      s = await makeRecordWorld(h, 'dhrsig', { serialData: { lotto: 'L1' } })
      signed = await signRecordWorld(h, s, 'dhrsig')
    }, 60_000)

    /** The signatures of each kind in a record: revision, job correction, issue, serial correction, movement revert. */
    function kinds(r: HistoryRecord) {
      const job = r.corrections.find((c) => c.kind === 'job')
      const serial = r.corrections.find((c) => c.kind === 'serial')
      const original = r.movements.find((m) => m._key === s.movementKey)
      return {
        revision: r.revision.signatures,
        job: job?.signatures ?? [],
        issue: r.issues.find((i) => i._key === signed.criticalIssueKey)?.signatures ?? [],
        serial: serial?.signatures ?? [],
        movement: original?.signatures ?? [],
      }
    }

    test('the work order record: each signature under its record, with meaning, signer and validity', async () => {
      const r = await workOrderRecord(h.svc, s.workOrderKey)
      expect(r.corrections.map((c) => [c.kind, c.event_type])).toEqual([
        ['job', 'JOB_TIMES_UPDATED'],
        ['serial', 'SERIAL_UPDATED'],
      ])
      const [job, serial] = r.corrections as [HistoryRecord['corrections'][0], HistoryRecord['corrections'][0]]
      expect(job).toMatchObject({ by: { _key: signed.production.key, name: 'Paolo Bianchi' }, job_key: s.jobKey, phase_name: 'Montaggio', operator_name: 'Mario Rossi', reason: null })
      expect(job.changes).toEqual([{ field: 'time_spent_ms', from: expect.any(Number), to: 90_000 }])
      expect(serial).toMatchObject({ by: { name: 'Anna Neri' }, serial_key: s.serialKey, serial_code: s.serialCode, reason: 'lotto errato' })
      expect(serial.changes).toEqual([{ field: 'data', from: { lotto: 'L1' }, to: { lotto: 'L2' } }])
      const k = kinds(r)
      expect(briefly(k.revision)).toEqual([['revision', 'approved', 'signer', 'Giulia Verdi', true]])
      expect(briefly(k.job)).toEqual([['job_correction', 'approved', 'signer', 'Paolo Bianchi', true]])
      expect(briefly(k.issue)).toEqual([['issue', 'verified', 'signer', 'Giulia Verdi', true]])
      expect(briefly(k.serial)).toEqual([['serial_correction', 'performed', 'signer', 'Anna Neri', true]])
      expect(briefly(k.movement)).toEqual([['movement_revert', 'verified', 'signer', 'Luca Gialli', true]])
      expect(k.job[0]!.subject_key).toBe(`${s.jobKey}:${job._key}`)
      expect(k.serial[0]!.subject_key).toBe(`${s.serialKey}:${serial._key}`)
      // The issue closed unsigned and the revert movement itself carry none; the revert names what it reverts.
      expect(r.issues.find((i) => i.code === s.issueCode)?.signatures).toEqual([])
      const revert = r.movements.find((m) => m.reverts_key === s.movementKey)!
      expect(revert.signatures).toEqual([])
      expect(r.movements.find((m) => m._key === s.movementKey)).toMatchObject({ reverted_by_key: revert._key, revert_reason: 'carico errato' })
    })

    test('the serial record: its own correction, and the signatures of its batch, issues, movements and revision', async () => {
      const r = await serialRecord(h.svc, s.serialCode)
      expect(r.corrections.map((c) => [c.kind, c.serial_code ?? c.job_key])).toEqual([
        ['job', s.jobKey],
        ['serial', s.serialCode],
      ])
      for (const sigs of Object.values(kinds(r))) expect(sigs.map((x) => x.valid)).toEqual([true])
      // The work order's record where the serial is listed carries the same correction, and the
      // component's record (a loose serial, no work order) is not asked for.
      const wo = await workOrderRecord(h.svc, s.workOrderKey)
      expect(wo.corrections.find((c) => c.kind === 'serial')?.signatures.map((x) => x._key)).toEqual(kinds(r).serial.map((x) => x._key))
    })

    test('the PDF prints every signature as the screens write it, in Italian and in English', async () => {
      const r = await workOrderRecord(h.svc, s.workOrderKey)
      const it = await flat(r, 'it')
      for (const text of [
        'Rilascio della revisione 1: Firmato da Giulia Verdi · DATE · Approvato',
        // A cell's lines wrap beside the next cell's: what is in one cell is checked piece by piece.
        'Correzioni .*Paolo Bianchi Tempi del job corretti \\(Fase .*tempo di lavoro: 0:00:00 -> 0:01:30 .*Montaggio, Job Mario Rossi\\) Firmato da Paolo Bianchi · DATE · Approvato',
        `Seriale corretto: ${s.serialCode} dati lotto: L1 -> L2 lotto errato Firmato da Anna Neri · DATE · Eseguito`,
        `${signed.criticalIssueCode} DHRSIG-CRIT Cricca sul corpo .*\\(critico\\) Firmato da Giulia Verdi · DATE · Verificato`,
        'Stornato da M-\\d+: carico errato Firmato da Luca Gialli · DATE · Verificato',
      ])
        expect(it).toMatch(line(text))
      expect(it).not.toContain('NON PIÙ VALIDA')
      const en = await flat(r, 'en')
      for (const text of [
        'Release of revision 1: Signed by Giulia Verdi · DATE · Approved',
        'Corrections .*Job times corrected .*working time: 0:00:00 -> 0:01:30 .*Signed by Paolo Bianchi · DATE · Approved',
        `Serial corrected: ${s.serialCode} data lotto: L1 -> L2 lotto errato Signed by Anna Neri · DATE · Performed`,
        `${signed.criticalIssueCode} DHRSIG-CRIT Cricca sul corpo .*\\(critical\\) Signed by Giulia Verdi · DATE · Verified`,
        'Reverted by M-\\d+: carico errato Signed by Luca Gialli · DATE · Verified',
      ])
        expect(en).toMatch(line(text))
    })

    test('a signature whose signed data changed afterwards is marked, in the JSON and the PDF, kind by kind', async () => {
      const before = await workOrderRecord(h.svc, s.workOrderKey)
      const jobEvent = before.corrections.find((c) => c.kind === 'job')!._key
      const serialEvent = before.corrections.find((c) => c.kind === 'serial')!._key
      const revertEvent = kinds(before).movement[0]!.subject_key.split(':')[1]!
      // The issue reopened; the rest changed behind the application's back (triggers off).
      await actOnIssue(h.svc, signed.quality.actor, signed.criticalIssueKey, 'reopen')
      await h.svc.db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx)
        await sql`update product_revisions set reason = 'Cambiata' where id = ${signed.revisionKey}`.execute(trx)
        await sql`update events set data = jsonb_set(data, '{time_spent_ms,to}', '60000') where id = ${Number(jobEvent)}`.execute(trx)
        await sql`update events set data = jsonb_set(data, '{reason}', '"altro"') where id in (${Number(serialEvent)}, ${Number(revertEvent)})`.execute(trx)
      })
      const r = await workOrderRecord(h.svc, s.workOrderKey)
      for (const sigs of Object.values(kinds(r))) expect(sigs.map((x) => x.valid)).toEqual([false])
      const it = await flat(r, 'it')
      expect(it.match(/FIRMA NON PIÙ VALIDA: i dati sono cambiati dopo la firma/g)).toHaveLength(5)
      for (const [name, meaning] of [
        ['Giulia Verdi', 'Approvato'],
        ['Paolo Bianchi', 'Approvato'],
        ['Giulia Verdi', 'Verificato'],
        ['Anna Neri', 'Eseguito'],
        ['Luca Gialli', 'Verificato'],
      ])
        expect(it).toMatch(line(`Firmato da ${name} · DATE · ${meaning} · FIRMA NON PIÙ VALIDA`))
      const en = await flat(r, 'en')
      expect(en.match(/SIGNATURE NO LONGER VALID: the data changed after signing/g)).toHaveLength(5)
      // The batch steps' signatures of the first work order are untouched.
      expect((await flat(await workOrderRecord(h.svc, w.workOrderKey), 'it')).includes('NON PIÙ VALIDA')).toBe(false)
    })
  })
})
