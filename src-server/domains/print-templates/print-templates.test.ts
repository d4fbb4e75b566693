import { beforeAll, describe, expect, test } from 'bun:test'
import { PRESETS } from '../../../src/domains/printing/schemas'
import { adminToken, appCode, MISSING_UUID, quickUser, tableCounts, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeField } from '../execution/test-fixtures'
import { makeProduct, makeWorkOrder } from '../jobs/test-fixtures'
import { decodeBarcodes, makeBasePdf, pdfText } from '../printers/test-printers'

type Field = Record<string, unknown>
const textField = (name: string, link: string, y: number, extra: Field = {}): Field => ({ name, kind: 'text', link_type: 'preset', link, x: 10, y, width: 280, height: 12, font_size: 9, ...extra })

describe('print templates', () => {
  const h = useHarness()
  let admin: string
  let lib: string
  let op: { key: string; token: string }
  let base: Uint8Array

  beforeAll(async () => {
    admin = await adminToken(h)
    lib = (await quickUser(h, 'pt-library', 'library')).token
    op = await quickUser(h, 'pt-operator', 'operator')
    base = await makeBasePdf({ width: 300, height: 400 })
  })

  const upload = (form: Record<string, string | Blob>, token = admin) => {
    const fd = new FormData()
    for (const [k, v] of Object.entries(form)) fd.append(k, v as Blob)
    return h.request('POST', '/api/print-template', { token, body: fd })
  }
  const pdfBlob = (bytes: Uint8Array, name = 'base.pdf') => new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'application/pdf' })
  const printPdf = async (body: Record<string, unknown>, token = op.token) => {
    const res = await h.request('POST', '/api/print', { token, body })
    expect({ status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({ status: 201, body: 'ok' })
    const file = await h.svc.files.get(res.body.detail.pdf_url.slice('/media/'.length))
    return { row: res.body.detail, pdf: new Uint8Array(await file!.arrayBuffer()) }
  }

  test('upload: a PDF with fields is stored and served; refusals write nothing (not a PDF, too large, unknown field or preset, outside the page, no admin)', async () => {
    const fields = [textField('Codice', 'product_code', 20)]
    const res = await upload({ name: 'Etichetta prodotto', base_pdf: pdfBlob(base, 'etichetta.pdf'), fields: JSON.stringify(fields), context: 'position', context_key: 'IN' })
    expect(res.status).toBe(201)
    expect(res.body.detail).toMatchObject({ name: 'Etichetta prodotto', base_pdf_name: 'etichetta.pdf', pages: 1, page_width: 300, page_height: 400, context: 'position', context_key: 'IN', temp: false, trash: false })
    expect(res.body.detail.fields[0]).toMatchObject({ name: 'Codice', page: 1, font_size: 9 })
    const served = await h.app.request(`http://mes.test${res.body.detail.base_pdf_url}`, { headers: { authorization: `Bearer ${op.token}` } })
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(base))

    const before = await tableCounts(h)
    const big = new Uint8Array(50 * 1024 * 1024)
    big.set(new TextEncoder().encode('%PDF-1.7\n'))
    const unknownField = [{ ...textField('X', MISSING_UUID, 20), link_type: 'custom_field' }]
    const cases: [Record<string, string | Blob>, number, string, string?][] = [
      [{ name: 'Non PDF', base_pdf: new File(['hello, not a pdf'], 'nota.pdf', { type: 'application/pdf' }) }, 400, 'BASE_PDF_INVALID'],
      [{ name: 'PNG', base_pdf: new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0])], 'a.png') }, 400, 'BASE_PDF_INVALID'],
      [{ name: 'Broken', base_pdf: new File(['%PDF-1.4\nnot really'], 'b.pdf') }, 400, 'BASE_PDF_INVALID'],
      [{ name: 'Grande', base_pdf: new File([big], 'grande.pdf') }, 413, 'PAYLOAD_TOO_LARGE'],
      [{ name: 'Campo ignoto', base_pdf: pdfBlob(base), fields: JSON.stringify(unknownField) }, 400, 'UNKNOWN_FIELD'],
      [{ name: 'Campo non uuid', base_pdf: pdfBlob(base), fields: JSON.stringify([{ ...unknownField[0], link: 'colore' }]) }, 400, 'UNKNOWN_FIELD'],
      [{ name: 'Preset ignoto', base_pdf: pdfBlob(base), fields: JSON.stringify([textField('X', 'lotto_magico', 20)]) }, 400, 'INVALID_INPUT', 'fields.0.link'],
      [{ name: 'Fuori', base_pdf: pdfBlob(base), fields: JSON.stringify([textField('X', 'today', 395)]) }, 400, 'PRINT_FIELD_OUTSIDE'],
      [{ name: 'Pagina 2', base_pdf: pdfBlob(base), fields: JSON.stringify([textField('X', 'today', 10, { page: 2 })]) }, 400, 'INVALID_INPUT', 'fields.0.page'],
      [{ name: 'JSON rotto', base_pdf: pdfBlob(base), fields: '[{' }, 400, 'INVALID_INPUT', 'fields'],
      [{ name: 'Tipo ignoto', base_pdf: pdfBlob(base), fields: JSON.stringify([textField('X', 'today', 10, { kind: 'pdf417' })]) }, 400, 'INVALID_INPUT', 'fields.0.kind'],
      [{ name: '   ', base_pdf: pdfBlob(base) }, 400, 'INVALID_INPUT', 'name'],
      [{ name: 'Chiave ignota', base_pdf: pdfBlob(base), colour: 'red' }, 400, 'INVALID_INPUT', 'colour'],
    ]
    for (const [form, status, code, path] of cases) {
      const r = await upload(form)
      expect({ name: form.name, status: r.status, code: appCode(r.body) }).toEqual({ name: form.name, status, code })
      if (path) expect(r.body.detail.issues.map((i: { path: string }) => i.path)).toContain(path)
    }
    const notAdmin = await upload({ name: 'Op', base_pdf: pdfBlob(base) }, op.token)
    expect(notAdmin.status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
  })

  test('fill: every preset reaches the PDF (work order, job, batch, serial, issue, position, operator, today)', async () => {
    const fields = PRESETS.filter((p) => p !== 'job_url').map((p, i) => textField(`f-${p}`, p, 20 + i * 14, { width: 180 }))
    fields.push({ ...textField('Fisso', 'Etichetta fissa àè', 20 + 14 * PRESETS.length), link_type: 'fixed' })
    const tpl = (await upload({ name: 'Tutti i preset', base_pdf: pdfBlob(base), fields: JSON.stringify(fields) })).body.detail
    const product = await makeProduct(h.svc.db, { code: 'PT-PUMP', phases: [{ name: 'Collaudo finale' }] })
    await h.svc.db.updateTable('products').set({ description: 'Pompa centrifuga' }).where('id', '=', product.id).execute()
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 12, code: 'WO-PT-1', due_by: '2026-12-24', operator: op.key })
    await h.svc.db.updateTable('users').set({ name: 'Maria', surname: 'Bianchi' }).where('id', '=', op.key).execute()
    const batch = await h.svc.db.insertInto('batches').values({ job_id: wo.jobs[0]!, qt_total: 3, opened_by: op.key, opened_at: new Date() }).returning('id').executeTakeFirstOrThrow()
    const serial = await h.svc.db
      .insertInto('serials')
      .values({ code: 'SN-PT-0007', product_id: product.id, work_order_id: wo.id, job_id: wo.jobs[0]!, batch_id: batch.id, phase_id: product.phases[0]!, operator_id: op.key, data: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const type = await h.svc.db.insertInto('issue_types').values({ code: 'NCPT', name: 'Non conformità', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
    const issue = await h.svc.db
      .insertInto('issues')
      .values({ code: 'NC-PT-1', type_id: type.id, title: 'Graffio sul coperchio', context_type: 'job', job_id: wo.jobs[0]!, work_order_id: wo.id, product_id: product.id, opened_by: op.key, opened_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow()
    const now = h.clock.now()
    const today = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getDate()).padStart(2, '0')}`
    // The shelf IN-01 in rack PT-A of warehouse PT-MAG: its label carries its description and path too.
    const position = async (code: string, description: string, parent_key?: string) =>
      (await h.request('POST', '/api/position', { token: admin, body: { code, description, parent_key } })).body.detail._key as string
    await position('IN-01', 'Ripiano ingresso', await position('PT-A', 'Scaffale A', await position('PT-MAG', 'Magazzino')))
    const { row, pdf } = await printPdf({ template_key: tpl._key, serial_key: serial.id, issue_key: issue.id, position_code: 'in-01' })
    expect(row).toMatchObject({ template_name: 'Tutti i preset', printer_key: null, status: 'made', documents: 1, username: 'pt-operator' })
    const text = await pdfText(pdf)
    for (const expected of ['PT-PUMP', 'Pompa centrifuga', 'WO-PT-1', '2026/12/24', 'WO-PT-1/1', 'Collaudo finale', 'Maria Bianchi', 'SN-PT-0007', 'IN-01', 'Ripiano ingresso', 'PT-MAG / PT-A / IN-01', 'NC-PT-1', 'Graffio sul coperchio', today, 'Etichetta fissa àè', 'ETICHETTA BASE 1']) {
      expect(text).toContain(expected)
    }
    // Batch quantity (3) over the job's (12) when a batch is known.
    expect(text).toMatch(/^\s*3\s*$/m)
    const jobOnly = await pdfText((await printPdf({ template_key: tpl._key, job_key: wo.jobs[0]! })).pdf)
    expect(jobOnly).toMatch(/^\s*12\s*$/m)
    expect(jobOnly).not.toContain('SN-PT-0007')
    // Unknown objects are 404s with their own codes; nothing is logged.
    const before = await tableCounts(h)
    for (const [body, code] of [
      [{ job_key: MISSING_UUID }, 'UNKNOWN_JOB'],
      [{ serial_key: 'nope' }, 'UNKNOWN_SERIAL'],
      [{ product_key: MISSING_UUID }, 'UNKNOWN_PRODUCT'],
      [{ work_order_key: MISSING_UUID }, 'UNKNOWN_WORK_ORDER'],
    ] as const) {
      const r = await h.request('POST', '/api/print', { token: op.token, body: { template_key: tpl._key, ...body } })
      expect({ status: r.status, code: appCode(r.body) }).toEqual({ status: 404, code })
    }
    const unknownTpl = await h.request('POST', '/api/print', { token: op.token, body: { template_key: MISSING_UUID } })
    expect({ status: unknownTpl.status, code: appCode(unknownTpl.body) }).toEqual({ status: 404, code: 'UNKNOWN_PRINT_TEMPLATE' })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('custom fields: product custom data, serial data and values given with the print; one label per serial of the batch', async () => {
    const colour = await makeField(h.svc.db, { name: 'Colore', type: 'text' })
    const lot = await makeField(h.svc.db, { name: 'Lotto fornitore', type: 'text' })
    const fields = [textField('Colore', colour, 20, { link_type: 'custom_field' }), textField('Lotto', lot.toUpperCase(), 40, { link_type: 'custom_field' }), textField('Seriale', 'serial_code', 60)]
    const tpl = (await upload({ name: 'Campi personalizzati', base_pdf: pdfBlob(base), fields: JSON.stringify(fields) })).body.detail
    expect(tpl.fields[1].link).toBe(lot)
    const product = await makeProduct(h.svc.db, { code: 'PT-CUSTOM', phases: [{}] })
    await h.svc.db.updateTable('products').set({ metadata: JSON.stringify([{ custom_field_key: colour, value: 'Rosso fuoco' }]) }).where('id', '=', product.id).execute()
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 3 })
    const batch = await h.svc.db.insertInto('batches').values({ job_id: wo.jobs[0]!, qt_total: 3, opened_at: new Date() }).returning('id').executeTakeFirstOrThrow()
    for (const [i, code] of ['SN-C-1', 'SN-C-2', 'SN-C-3'].entries()) {
      await h.svc.db
        .insertInto('serials')
        .values({ code, product_id: product.id, batch_id: batch.id, job_id: wo.jobs[0]!, work_order_id: wo.id, data: JSON.stringify({ [lot]: `LF-${i + 1}` }), created_at: new Date(Date.now() + i) })
        .execute()
    }
    const { row, pdf } = await printPdf({ template_key: tpl._key, batch_key: batch.id, per_serial: true })
    expect(row.documents).toBe(3)
    const pages = (await pdfText(pdf)).split('\f').filter((p) => p.trim())
    expect(pages).toHaveLength(3)
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('Rosso fuoco')
      expect(page).toContain(`LF-${i + 1}`)
      expect(page).toContain(`SN-C-${i + 1}`)
    }
    // Values given with the print win; copies repeat each document.
    const given = await printPdf({ template_key: tpl._key, product_key: product.id, values: { [colour]: 'Blu notte', serial_code: 'A MANO' }, copies: 2 })
    expect(given.row.documents).toBe(2)
    const text = await pdfText(given.pdf)
    expect(text.match(/Blu notte/g)).toHaveLength(2)
    expect(text).toContain('A MANO')
    const noBatch = await h.request('POST', '/api/print', { token: op.token, body: { template_key: tpl._key, product_key: product.id, per_serial: true } })
    expect({ status: noBatch.status, code: appCode(noBatch.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
  })

  test('barcodes: Code 128, QR, DataMatrix and EAN-13 decode back to the filled values; a value a symbology cannot carry is a 422', async () => {
    const fields = [
      { name: 'c128', kind: 'code128', link_type: 'preset', link: 'serial_code', x: 10, y: 10, width: 180, height: 50 },
      { name: 'qr', kind: 'qrcode', link_type: 'preset', link: 'product_code', x: 10, y: 80, width: 90, height: 90 },
      { name: 'dm', kind: 'datamatrix', link_type: 'preset', link: 'work_order_code', x: 150, y: 200, width: 70, height: 70 },
      { name: 'ean', kind: 'ean13', link_type: 'fixed', link: '400638133393', x: 10, y: 300, width: 180, height: 60 },
    ]
    const tpl = (await upload({ name: 'Codici a barre', base_pdf: pdfBlob(base), fields: JSON.stringify(fields) })).body.detail
    const product = await makeProduct(h.svc.db, { code: 'PT-BAR-9', phases: [{}] })
    const wo = await makeWorkOrder(h.svc.db, product, { code: 'WO-DM-42' })
    const { pdf } = await printPdf({ template_key: tpl._key, job_key: wo.jobs[0]!, values: { serial_code: 'SN-128-XYZ' } })
    const decoded = await decodeBarcodes(pdf, { x: 140, y: 190, width: 90, height: 90 })
    expect(decoded.zbar.sort()).toEqual(['CODE-128:SN-128-XYZ', 'EAN-13:4006381333931', 'QR-Code:PT-BAR-9'])
    expect(decoded.datamatrix).toEqual(['WO-DM-42'])

    const eanFromPreset = (await upload({ name: 'EAN preset', base_pdf: pdfBlob(base), fields: JSON.stringify([{ ...fields[3], link_type: 'preset', link: 'product_code' }]) })).body.detail
    const before = await tableCounts(h)
    const bad = await h.request('POST', '/api/print', { token: op.token, body: { template_key: eanFromPreset._key, product_key: product.id } })
    expect({ status: bad.status, code: appCode(bad.body), field: bad.body.detail.field }).toEqual({ status: 422, code: 'PRINT_VALUE_INVALID', field: 'ean' })
    expect(await tableCounts(h)).toEqual(before)
  }, 30_000)

  test('patch, trash and restore; the trash is listed apart and cannot print or be assigned', async () => {
    const tpl = (await upload({ name: 'Da cestinare', base_pdf: pdfBlob(base) })).body.detail
    const patch = (body: unknown, token = admin) => h.request('PATCH', `/api/print-template/${tpl._key}`, { token, body })
    let res = await patch({ name: 'Rinominato', fields: [textField('Oggi', 'today', 10)], temp: true, context: 'position', context_key: 'OUT' })
    expect(res.body.detail).toMatchObject({ name: 'Rinominato', temp: true, context: 'position', context_key: 'OUT' })
    expect(res.body.detail.fields).toHaveLength(1)
    expect((await patch({ fields: [textField('X', 'nope', 10)] })).status).toBe(400)
    expect((await patch({ name: 'x' }, lib)).status).toBe(403)
    res = await patch({ trash: true })
    expect(res.body.detail.trash).toBe(true)
    const list = (await h.request('GET', '/api/print-template', { token: op.token })).body.detail.map((t: { name: string }) => t.name)
    expect(list).not.toContain('Rinominato')
    const trash = (await h.request('GET', '/api/print-template?trash=true', { token: admin })).body.detail.map((t: { name: string }) => t.name)
    expect(trash).toEqual(['Rinominato'])
    const p = await h.request('POST', '/api/print', { token: op.token, body: { template_key: tpl._key } })
    expect({ status: p.status, code: appCode(p.body) }).toEqual({ status: 409, code: 'PRINT_TEMPLATE_IN_TRASH' })
    const product = await makeProduct(h.svc.db, { phases: [{}] })
    const a = await h.request('POST', '/api/update-template-assignments', { token: admin, body: { items: [{ type: 'add', context: 'product', context_key: product.id, template_key: tpl._key }] } })
    expect({ status: a.status, code: appCode(a.body) }).toEqual({ status: 409, code: 'PRINT_TEMPLATE_IN_TRASH' })
    // The trash can still be previewed.
    expect((await h.request('POST', `/api/print-template/${tpl._key}/preview`, { token: admin, body: {} })).status).toBe(200)
    res = await patch({ trash: false })
    expect(res.body.detail.trash).toBe(false)
    const events = await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', tpl._key).orderBy('id').execute()
    expect(events.map((e) => e.event_type)).toEqual(['PRINT_TEMPLATE_CREATED', 'PRINT_TEMPLATE_UPDATED', 'PRINT_TEMPLATE_TRASHED', 'PRINT_TEMPLATE_RESTORED'])
  })

  test('assignments: add and remove at products, phases, operations, issue types, positions and the settings labels; GET print-template by context', async () => {
    const mk = async (name: string) => (await upload({ name, base_pdf: pdfBlob(base) })).body.detail._key as string
    const [t1, t2, t3] = [await mk('A fase'), await mk('B prodotto'), await mk('C operazione')]
    const product = await makeProduct(h.svc.db, { phases: [{}] })
    const phase = product.phases[0]!
    const opId = (await h.svc.db.selectFrom('product_phases').select('operation_id').where('id', '=', phase).executeTakeFirstOrThrow()).operation_id
    const type = await h.svc.db.insertInto('issue_types').values({ code: 'ASSPT', name: 'Tipo', print_templates: JSON.stringify([t2]) }).returning('id').executeTakeFirstOrThrow()
    const assign = (items: unknown[], token = admin) => h.request('POST', '/api/update-template-assignments', { token, body: { items } })
    const byContext = async (context: string, key: string) =>
      (await h.request('GET', `/api/print-template?context=${context}&context_key=${encodeURIComponent(key)}`, { token: op.token })).body.detail.map((t: { name: string }) => t.name)

    let res = await assign([
      { type: 'add', context: 'phase', context_key: phase, template_key: t1 },
      { type: 'add', context: 'phase', context_key: phase, template_key: t1 },
      { type: 'add', context: 'product', context_key: product.id, template_key: t2 },
      { type: 'add', context: 'operation', context_key: opId, template_key: t3 },
      { type: 'add', context: 'position', context_key: 'in', template_key: t2 },
      { type: 'add', context: 'settings', context_key: 'product_label', template_key: t2 },
    ])
    expect(res.status).toBe(200)
    expect(res.body.detail).toHaveLength(5)
    expect(await byContext('phase', phase)).toEqual(['A fase', 'C operazione'])
    // Its own assignment, and the settings' product label (the same template here).
    expect(await byContext('product', product.id)).toEqual(['B prodotto'])
    expect(await byContext('operation', opId)).toEqual(['C operazione'])
    expect(await byContext('position', 'IN')).toEqual(['B prodotto', 'Etichetta prodotto'])
    expect(await byContext('settings', 'product_label')).toEqual(['B prodotto'])
    // The issue type's own print_templates list counts too.
    expect(await byContext('issue_type', type.id)).toEqual(['B prodotto'])
    // The library staff assign to products and phases through tRPC as well.
    const viaTrpc = await trpcCall(h, 'printTemplates.updateAssignments', 'mutation', { items: [{ type: 'remove', context: 'phase', context_key: phase, template_key: t1 }] }, { token: lib })
    expect(viaTrpc.status).toBe(200)
    expect(await byContext('phase', phase)).toEqual(['C operazione'])
    // The dialog's reads: where a template is assigned (readable labels), a product's phases.
    const where = await trpcCall(h, 'printTemplates.assignments', 'query', { key: t2 }, { token: admin })
    expect(where.body.result.data.map((a: { context: string; label: string }) => [a.context, a.label])).toEqual([
      ['position', 'IN'],
      ['product', product.code],
      ['settings', 'product_label'],
    ])
    const phases = await trpcCall(h, 'printTemplates.productPhases', 'query', { product_key: product.id }, { token: lib })
    // The draft's phases (the fixture's phase is its released revision's copy).
    expect(phases.body.result.data).toEqual([{ _key: expect.any(String), name: 'Fase 1' }])
    // The settings' position label applies to every position.
    expect((await assign([{ type: 'add', context: 'settings', context_key: 'position_label', template_key: t3 }])).status).toBe(200)
    expect(await byContext('position', 'OUT-9')).toEqual(['C operazione'])
    expect((await assign([{ type: 'remove', context: 'settings', context_key: 'position_label', template_key: t3 }])).status).toBe(200)
    expect(await byContext('position', 'OUT-9')).toEqual([])
    const listed = await trpcCall(h, 'printTemplates.list', 'query', { context: 'product', context_key: product.id }, { token: op.token })
    expect(listed.body.result.data.map((t: { name: string }) => t.name)).toEqual(['B prodotto'])

    const before = await tableCounts(h)
    const refusals: [unknown[], number, string][] = [
      [[{ type: 'add', context: 'product', context_key: MISSING_UUID, template_key: t1 }], 404, 'UNKNOWN_ASSIGNMENT_TARGET'],
      [[{ type: 'add', context: 'phase', context_key: 'fase-1', template_key: t1 }], 404, 'UNKNOWN_ASSIGNMENT_TARGET'],
      [[{ type: 'add', context: 'settings', context_key: 'logo', template_key: t1 }], 400, 'INVALID_INPUT'],
      [[{ type: 'add', context: 'job', context_key: phase, template_key: t1 }], 400, 'INVALID_INPUT'],
      [[{ type: 'add', context: 'phase', context_key: phase, template_key: t1 }, { type: 'add', context: 'phase', context_key: phase, template_key: MISSING_UUID }], 404, 'UNKNOWN_PRINT_TEMPLATE'],
      [[{ type: 'toggle', context: 'phase', context_key: phase, template_key: t1 }], 400, 'INVALID_INPUT'],
      [[], 400, 'INVALID_INPUT'],
    ]
    for (const [items, status, code] of refusals) {
      const r = await assign(items)
      expect({ items, status: r.status, code: appCode(r.body) }).toEqual({ items, status, code })
    }
    expect((await assign([{ type: 'add', context: 'phase', context_key: phase, template_key: t1 }], op.token)).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
    const half = await h.request('GET', '/api/print-template?context=phase', { token: op.token })
    expect({ status: half.status, code: appCode(half.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    const events = await h.svc.db.selectFrom('events').select(['event_type', 'data']).where('event_type', 'in', ['PRINT_TEMPLATE_ASSIGNED', 'PRINT_TEMPLATE_UNASSIGNED']).orderBy('id').execute()
    const [A, U] = ['PRINT_TEMPLATE_ASSIGNED', 'PRINT_TEMPLATE_UNASSIGNED']
    expect(events.map((e) => e.event_type)).toEqual([A, A, A, A, A, U, A, U])
    expect(events[3]!.data).toEqual({ context: 'position', context_key: 'IN' })
  })

  test('preview fills sample values; the REST paths are in OpenAPI', async () => {
    const tpl = (await upload({ name: 'Anteprima', base_pdf: pdfBlob(base), fields: JSON.stringify([textField('Codice', 'product_code', 20), textField('Ordine', 'work_order_code', 40)]) })).body.detail
    const res = await h.request('POST', `/api/print-template/${tpl._key}/preview`, { token: admin, body: { values: { work_order_code: 'OP-PROVA' } } })
    expect(res.status).toBe(200)
    const text = await pdfText(Buffer.from(res.body.detail.pdf_base64, 'base64'))
    expect(text).toContain('PRD-0001')
    expect(text).toContain('OP-PROVA')
    const openapi = (await h.request('GET', '/api/openapi.json')).body
    for (const p of ['/print-template', '/print-template/{key}', '/update-template-assignments', '/print', '/printer', '/printer/{key}/test', '/printer/default']) {
      expect(Object.keys(openapi.paths)).toContain(p)
    }
  })
})
