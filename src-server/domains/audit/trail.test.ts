import { beforeAll, describe, expect, test } from 'bun:test'
import ExcelJS from 'exceljs'
import { adminToken, quickUser } from '../../test/fixtures'
import { ORIGIN, useHarness } from '../../test/harness'
import { startJobs } from '../execution/start-pause'
import { completeStep } from '../execution/steps'
import { makeOperator, makeSetup, newKey } from '../execution/test-fixtures'
import { appendEvent } from '../events/service'
import { makeProduct, makeWorkOrder } from '../jobs/test-fixtures'
import { plantTimeZone } from '../reports/service'

describe('audit trail', () => {
  const h = useHarness()
  let admin: string
  let auditor: { key: string; token: string }
  let quality: { key: string; token: string }
  let operator: { key: string; token: string }

  beforeAll(async () => {
    admin = await adminToken(h)
    auditor = await quickUser(h, 'trail.auditor', 'audit')
    quality = await quickUser(h, 'trail.quality', 'quality')
    operator = await quickUser(h, 'trail.operator', 'operator')
    const actor = { userId: operator.key, sessionId: null, scope: 'operator', tokenId: null }
    for (let i = 1; i <= 7; i++) {
      await appendEvent(h.svc.db, actor, {
        event_type: 'WORK_ORDER_UPDATED',
        subject_type: 'work_order',
        subject_key: `wo-key-${i % 2}`,
        data: { code: `WO-TRAIL-${i % 2}`, reason: `motivo ${i}`, changes: { quantity: { from: i, to: i + 1 } } },
      })
    }
  })

  const trail = (token: string, query: string) => h.request('GET', `/api/audit-trail${query}`, { token })

  test('newest first with who, the entity code, the reason and the changes; filtered by code, user, type and entity', async () => {
    const res = await trail(auditor.token, '?code=WO-TRAIL-1&user=trail.operator&event_type=WORK_ORDER_UPDATED&subject_type=work_order')
    expect(res.status).toBe(200)
    const rows = res.body.detail.rows
    expect(rows.map((r: any) => r.reason)).toEqual(['motivo 7', 'motivo 5', 'motivo 3', 'motivo 1'])
    expect(rows[0]).toMatchObject({
      event_type: 'WORK_ORDER_UPDATED',
      subject_type: 'work_order',
      subject_key: 'wo-key-1',
      code: 'WO-TRAIL-1',
      user: { _key: operator.key, username: 'trail.operator' },
      changes: { quantity: { from: 7, to: 8 } },
    })
    // The key finds the same events as the code.
    const byKey = await trail(auditor.token, '?code=wo-key-1')
    expect(byKey.body.detail.rows.map((r: any) => r.id)).toEqual(rows.map((r: any) => r.id))
    expect((await trail(auditor.token, '?user=nobody')).body.detail.rows).toEqual([])
  })

  test('a work order, by its code or its key, brings the events of its jobs (steps, signatures, corrections)', async () => {
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Montaggio' }, { name: 'Collaudo' }] })
    const wo = await makeWorkOrder(h.svc.db, product, { code: 'WO-TRAIL-JOBS' })
    const actor = { userId: operator.key, sessionId: null, scope: 'operator', tokenId: null }
    for (const job of wo.jobs) await appendEvent(h.svc.db, actor, { event_type: 'STEP_SIGNED', subject_type: 'job', subject_key: job, data: { meaning: 'verified' } })
    for (const code of ['WO-TRAIL-JOBS', wo.id]) {
      const rows = (await trail(quality.token, `?code=${code}`)).body.detail.rows as { event_type: string; subject_key: string }[]
      expect(rows.map((r) => [r.event_type, r.subject_key])).toEqual([...wo.jobs].reverse().map((j) => ['STEP_SIGNED', j]))
    }
  })

  test('a signed step: each signature event is its signer\'s, with the name and meaning; a job\'s events name its work order; the chain holds', async () => {
    const op = await makeOperator(h, 'trail.signer')
    const qa = await makeOperator(h, 'trail.second', 'quality')
    await h.svc.db.updateTable('users').set({ name: 'Mario', surname: 'Rossi' }).where('id', '=', op.key).execute()
    await h.svc.db.updateTable('users').set({ name: 'Giulia', surname: 'Verdi' }).where('id', '=', qa.key).execute()
    const setup = await makeSetup(h.svc.db, {
      quantity: 1,
      operator: op.key,
      phases: [{ steps: [{ type: 'instruction', signature: { meaning: 'verified', second_signer: 'quality' } }] }],
    })
    const job = setup.jobs[0]![0]!
    const batch = (await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })).jobs[0]!.batch!._key
    await completeStep(h.svc, op.actor, {
      batch_key: batch,
      step_key: setup.phases[0]!.steps[0]!._key,
      signature: { password: 'password-123', second_signer: { username: 'trail.second', password: 'password-123' } },
      idempotency_key: newKey(),
    })
    const woCode = (await h.svc.db.selectFrom('work_orders').select('code').where('id', '=', setup.workOrderKey).executeTakeFirstOrThrow()).code
    const rows = (await trail(auditor.token, `?code=${woCode}&event_type=STEP_SIGNED`)).body.detail.rows as any[]
    // Newest first: the second signer's event, then the operator's.
    expect(rows.map((r) => [r.user.username, r.user.full_name, r.signature, r.data.signed_in_user_key ?? null])).toEqual([
      ['trail.second', 'Giulia Verdi', { full_name: 'Giulia Verdi', meaning: 'verified', role: 'second_signer' }, op.key],
      ['trail.signer', 'Mario Rossi', { full_name: 'Mario Rossi', meaning: 'verified', role: 'signer' }, null],
    ])
    expect(rows.map((r) => [r.subject_type, r.subject_key, r.work_order])).toEqual([
      ['job', job, { _key: setup.workOrderKey, code: woCode }],
      ['job', job, { _key: setup.workOrderKey, code: woCode }],
    ])
    // The user filter finds the second signer's signature under their own name.
    const theirs = (await trail(auditor.token, '?user=trail.second&event_type=STEP_SIGNED')).body.detail.rows as any[]
    expect(theirs.map((r) => r.id)).toEqual([rows[0].id])
    // Any other event: no signature, and no work order unless it is about a job.
    const plain = (await trail(auditor.token, '?code=WO-TRAIL-1&limit=1')).body.detail.rows[0]
    expect([plain.signature, plain.work_order]).toEqual([null, null])
    const started = (await trail(auditor.token, `?code=${woCode}&event_type=JOB_STARTED`)).body.detail.rows as any[]
    expect(started.map((r) => [r.user.username, r.work_order?.code])).toEqual([['trail.signer', woCode]])
    const chain = await h.request('GET', '/api/audit-chain', { token: auditor.token })
    expect(chain.body.detail).toMatchObject({ ok: true })
  })

  test('keyset pages: each page continues where the last ended, none repeated, none skipped', async () => {
    const all = (await trail(quality.token, '?subject_type=work_order&limit=500')).body.detail.rows.map((r: any) => r.id)
    const seen: number[] = []
    let before: number | null = null
    do {
      const res = await trail(quality.token, `?subject_type=work_order&limit=3${before ? `&before=${before}` : ''}`)
      seen.push(...res.body.detail.rows.map((r: any) => r.id))
      before = res.body.detail.next_before
    } while (before)
    expect(seen).toEqual(all)
    expect(all.length).toBeGreaterThanOrEqual(7)
  })

  test('days in the plant time zone: today finds them, a past range does not; a wrong day is 400 naming it', async () => {
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: plantTimeZone() }).format(new Date())
    const day = (d: string) => d.replaceAll('-', '/')
    expect((await trail(admin, `?code=WO-TRAIL-0&from=${day(today)}&to=${day(today)}`)).body.detail.rows.length).toBe(3)
    expect((await trail(admin, '?code=WO-TRAIL-0&from=2020/01/01&to=2020/12/31')).body.detail.rows).toEqual([])
    const bad = await trail(admin, '?from=2026/02/30')
    expect(bad.status).toBe(400)
    expect(bad.body.detail.code).toBe('INVALID_INPUT')
  })

  test('who may read it: admin, quality and audit; not an operator; the chain only admin and audit', async () => {
    expect((await trail(operator.token, '')).status).toBe(403)
    for (const token of [admin, quality.token, auditor.token]) expect((await trail(token, '?limit=1')).status).toBe(200)
    const chain = (token: string) => h.request('GET', '/api/audit-chain', { token })
    expect((await chain(quality.token)).status).toBe(403)
    const ok = await chain(auditor.token)
    expect(ok.status).toBe(200)
    expect(ok.body.detail).toMatchObject({ ok: true })
    expect(ok.body.detail.events).toBeGreaterThanOrEqual(7)
  })

  test('exports the same filter as CSV (headers in the asked language) and XLSX (the number as a number)', async () => {
    const csv = await h.app.request(`${ORIGIN}/api/audit-trail/export?code=WO-TRAIL-1&format=csv`, { headers: { authorization: `Bearer ${auditor.token}` } })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const lines = (await csv.text()).replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('N.;Data e ora;Utente;Nome;Evento;Entità;Codice;Chiave;Motivo;Modifiche;Dati')
    expect(lines).toHaveLength(5)
    expect(lines[1]).toContain(';trail.operator;;WORK_ORDER_UPDATED;work_order;WO-TRAIL-1;wo-key-1;motivo 7;')

    const xlsx = await h.app.request(`${ORIGIN}/api/audit-trail/export?code=WO-TRAIL-1&format=xlsx&lang=en`, { headers: { authorization: `Bearer ${auditor.token}` } })
    expect(xlsx.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await xlsx.arrayBuffer())
    const sheet = book.worksheets[0]!
    expect(sheet.getRow(1).getCell(2).value).toBe('Date and time')
    expect(sheet.rowCount).toBe(5)
    expect(typeof sheet.getRow(2).getCell(1).value).toBe('number')
    expect(sheet.getRow(2).getCell(9).value).toBe('motivo 7')

    const refused = await h.request('GET', '/api/audit-trail/export?format=pdf', { token: auditor.token })
    expect(refused.status).toBe(400)
    expect((await h.request('GET', '/api/audit-trail/export?format=csv', { token: operator.token })).status).toBe(403)
  })
})
