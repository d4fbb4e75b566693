import { beforeAll, describe, expect, test } from 'bun:test'
import { adminToken, tableCounts } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { createField, createOperation, insertProduct } from '../process/test-helpers'

/**
 * Change control (issue 21): the library edits a draft and releases revisions; work orders run
 * on the revision they were made from; running work never changes under the operator.
 */
describe('revisions', () => {
  const h = useHarness()
  let admin: string
  let library: string
  let production: string
  let operator: { key: string; token: string }
  let operation: string
  let field: string
  let component: string

  beforeAll(async () => {
    admin = await adminToken(h)
    library = (await userWithScope(h, 'rev.library', 'library')).token
    production = (await userWithScope(h, 'rev.production', 'production')).token
    operator = await userWithScope(h, 'rev.operator', 'operator')
    operation = (await createOperation(h, admin, 'Montaggio'))._key
    field = await createField(h, admin, 'Coppia', { type: 'number' })
    component = await insertProduct(h, 'REV-VITE')
  }, 60_000)

  const put = (product: string, phases: unknown[]) => h.request('PUT', `/api/product/${product}/process`, { token: library, body: { phases } })
  const release = (product: string, reason: string, token = library) => h.request('POST', `/api/product/${product}/revision`, { token, body: { reason } })
  const revisions = async (product: string) => (await h.request('GET', `/api/product/${product}/revision`, { token: library })).body.detail
  const diff = async (product: string, from: number | 'draft', to: number | 'draft') =>
    (await h.request('GET', `/api/product/${product}/revision-diff?from=${from}&to=${to}`, { token: library })).body.detail
  /** A phase as the process answers it, as PUT takes it back. */
  const asInput = ({ position: _p, operation_name: _o, component_count: _c, ...phase }: Record<string, unknown>) => phase
  const steps = [
    { type: 'instruction', title: 'Pulire la sede' },
    { type: 'form', title: 'Serrare le viti', fields: [] as string[] },
    { type: 'instruction', title: 'Controllare il serraggio', text: 'a vista' },
  ]
  /** A product whose one phase has three steps (the second a form), with a bom line. */
  async function product(code: string) {
    const key = await insertProduct(h, code)
    const phases = (await put(key, [{ operation_key: operation, name: 'Assemblaggio', steps: steps.map((s, i) => (i === 1 ? { ...s, fields: [field] } : s)) }])).body.detail.phases
    const bom = await h.request('PUT', `/api/product/${key}/bom`, { token: library, body: { lines: [{ phase_key: phases[0]._key, item_key: component, quantity: 2, quantity_per: 'item' }] } })
    expect(bom.status).toBe(200)
    return { key, phase: phases[0] }
  }

  test('draft, release, nothing to release, discard: numbers 1, 2 and the draft back to the latest revision', async () => {
    const p = await product('REV-A')
    expect(await revisions(p.key)).toEqual({ product_key: p.key, revisions: [], draft_changed: true })
    const noReason = await release(p.key, '  ')
    expect(noReason.status).toBe(400)
    expect((await release(p.key, 'Prima emissione', production)).status).toBe(403)

    const first = await release(p.key, 'Prima emissione')
    expect(first.status).toBe(201)
    expect(first.body.detail).toMatchObject({ number: 1, reason: 'Prima emissione', origin: 'release', released_by: { name: expect.any(String) } })
    const again = await release(p.key, 'Di nuovo')
    expect(again.status).toBe(409)
    expect(again.body.detail).toMatchObject({ code: 'NOTHING_TO_RELEASE', revision: 1 })
    expect((await revisions(p.key)).draft_changed).toBe(false)

    // The released revision holds the whole process and bom, and the field definitions.
    const rev1 = (await h.request('GET', `/api/product/${p.key}/revision/1`, { token: production })).body.detail
    expect(rev1.phases).toHaveLength(1)
    expect(rev1.phases[0]).toMatchObject({ name: 'Assemblaggio', lineage: p.phase._key, bom: [{ item_key: component, quantity: 2 }] })
    expect(rev1.phases[0]._key).not.toBe(p.phase._key)
    expect(rev1.phases[0].steps.map((s: { title: string }) => s.title)).toEqual(steps.map((s) => s.title))
    expect(rev1.form_fields[field]).toMatchObject({ name: 'Coppia', type: 'number' })
    expect((await h.request('GET', `/api/product/${p.key}/revision/7`, { token: production })).body.detail.code).toBe('UNKNOWN_REVISION')

    // Edit the draft, then discard: the draft is revision 1 again.
    const draft = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases
    expect((await put(p.key, [{ _key: draft[0]._key, operation_key: operation, name: 'Assemblaggio finale' }])).status).toBe(200)
    expect((await revisions(p.key)).draft_changed).toBe(true)
    const discarded = await h.request('DELETE', `/api/product/${p.key}/draft`, { token: library })
    expect(discarded.status).toBe(200)
    expect(discarded.body.detail.draft_changed).toBe(false)
    const back = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases
    expect(back.map((ph: { name: string }) => ph.name)).toEqual(['Assemblaggio'])
    expect((await h.request('GET', `/api/product/${p.key}/bom`, { token: library })).body.detail.lines).toHaveLength(1)

    // A real change makes revision 2; the revisions list is newest first.
    expect((await put(p.key, [{ _key: back[0]._key, operation_key: operation, production_notes: 'Guanti' }])).status).toBe(200)
    expect((await release(p.key, 'Note di produzione')).body.detail.number).toBe(2)
    const list = await revisions(p.key)
    expect(list.revisions.map((r: { number: number; reason: string }) => [r.number, r.reason])).toEqual([
      [2, 'Note di produzione'],
      [1, 'Prima emissione'],
    ])
    const events = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'REVISION_RELEASED').where('subject_key', '=', p.key).orderBy('id').execute()
    expect(events.map((e) => (e.data as { number: number }).number)).toEqual([1, 2])

    // Without phases there is nothing to release; without a revision nothing to go back to.
    const empty = await insertProduct(h, 'REV-EMPTY')
    expect((await release(empty, 'Vuoto')).body.detail.code).toBe('PROCESS_EMPTY')
    expect((await h.request('DELETE', `/api/product/${empty}/draft`, { token: library })).body.detail.code).toBe('NO_REVISION')
  })

  test('concurrent releases never skip or repeat a number', async () => {
    const p = await product('REV-RACE')
    const results = await Promise.all([release(p.key, 'uno'), release(p.key, 'due'), release(p.key, 'tre')])
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    const draft = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases
    const edits = ['a', 'b', 'c'].map((n) => async () => {
      await put(p.key, [{ _key: draft[0]._key, operation_key: operation, production_notes: n }])
      return release(p.key, n)
    })
    await Promise.all(edits.map((e) => e()))
    const numbers = (await revisions(p.key)).revisions.map((r: { number: number }) => r.number)
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a))
    expect(numbers.at(-1)).toBe(1)
    expect(new Set(numbers).size).toBe(numbers.length)
    expect(numbers[0]).toBe(numbers.length)
  })

  test('the diff names reworded, removed and added steps, bom changes, phase attributes and field definitions', async () => {
    const p = await product('REV-DIFF')
    await release(p.key, 'Prima emissione')
    const draft = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases[0]
    const [s1, , s3] = draft.steps
    const changed = await put(p.key, [
      { _key: draft._key, operation_key: operation, name: 'Assemblaggio', production_notes: 'Guanti', steps: [s1, { ...s3, text: 'con la chiave dinamometrica' }, { type: 'instruction', title: 'Etichettare' }] },
      { operation_key: operation, name: 'Imballo' },
    ])
    expect(changed.status).toBe(200)
    const phases = changed.body.detail.phases
    await h.request('PUT', `/api/product/${p.key}/bom`, { token: library, body: { lines: [{ phase_key: phases[0]._key, item_key: component, quantity: 3, quantity_per: 'item' }] } })
    const d = await diff(p.key, 1, 'draft')
    expect(d.changed).toBe(true)
    const [assembly, packing] = d.phases
    expect(assembly).toMatchObject({ lineage: p.phase._key, change: 'changed', attributes: [{ attribute: 'production_notes', from: '', to: 'Guanti' }] })
    expect(assembly.steps.map((s: { change: string; from: { title: string } | null; to: { title: string } | null }) => [s.change, (s.to ?? s.from)!.title])).toEqual([
      ['removed', 'Serrare le viti'],
      ['changed', 'Controllare il serraggio'],
      ['added', 'Etichettare'],
    ])
    expect(assembly.steps[1]).toMatchObject({ from: { text: 'a vista' }, to: { text: 'con la chiave dinamometrica' } })
    expect(assembly.bom).toEqual([expect.objectContaining({ item_key: component, change: 'changed', from: expect.objectContaining({ quantity: 2 }), to: expect.objectContaining({ quantity: 3 }) })])
    expect(packing).toMatchObject({ name: 'Imballo', change: 'added' })
    // The reverse direction, and the definitions of fields the revision uses as the library has them now.
    expect((await diff(p.key, 'draft', 1)).phases[1]).toMatchObject({ name: 'Imballo', change: 'removed' })
    await h.request('PATCH', `/api/field/${field}`, { token: admin, body: { help_text: 'Nm' } })
    await h.request('DELETE', `/api/product/${p.key}/draft`, { token: library })
    expect((await diff(p.key, 1, 'draft')).fields).toEqual([{ key: field, name: 'Coppia', change: 'changed', attributes: [{ attribute: 'help_text', from: '', to: 'Nm' }] }])
    expect((await h.request('GET', `/api/product/${p.key}/revision-diff?from=1&to=9`, { token: library })).body.detail.code).toBe('UNKNOWN_REVISION')
  })

  test('work orders: refused without a release, pinned to the latest revision, moved to a newer one only while not started', async () => {
    const p = await product('REV-WO')
    const unreleased = await h.request('POST', '/api/work-order', { token: production, body: { product_key: p.key, quantity: 4 } })
    expect(unreleased.status).toBe(422)
    expect(unreleased.body.detail.code).toBe('PRODUCT_NOT_RELEASED')
    await release(p.key, 'Prima emissione')
    const created = await h.request('POST', '/api/work-order', { token: production, body: { product_key: p.key, quantity: 4, phase_operators: [{ phase_key: p.phase._key, operator_key: operator.key }] } })
    expect(created.status).toBe(201)
    const wo = created.body.detail
    expect(wo).toMatchObject({ revision: { number: 1 }, newer_revision: null })
    expect(wo.phases[0].jobs[0].operator_key).toBe(operator.key)
    expect((await h.request('POST', `/api/work-order/${wo._key}/revision`, { token: production })).body.detail.code).toBe('REVISION_NOT_NEWER')

    // Revision 2 adds a phase and rewords a step: the work order sees a newer revision, then moves to it.
    const draft = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases[0]
    await put(p.key, [{ ...asInput(draft), steps: draft.steps.map((s: { title: string }, i: number) => (i === 0 ? { ...s, title: 'Pulire bene la sede' } : s)) }, { operation_key: operation, name: 'Imballo' }])
    await release(p.key, 'Imballo aggiunto')
    const listed = (await h.request('GET', `/api/work-order?search=${wo.code}`, { token: production })).body.detail.rows[0]
    expect(listed).toMatchObject({ revision: { number: 1 }, newer_revision: 2 })
    const before = await tableCounts(h)
    expect((await h.request('POST', `/api/work-order/${wo._key}/revision`, { token: operator.token })).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
    const moved = await h.request('POST', `/api/work-order/${wo._key}/revision`, { token: production })
    expect(moved.status).toBe(200)
    expect(moved.body.detail).toMatchObject({ revision: { number: 2 }, newer_revision: null })
    expect(moved.body.detail.phases.map((ph: { name: string; released_in_qt: number }) => [ph.name, ph.released_in_qt])).toEqual([
      ['Assemblaggio', 4],
      ['Imballo', 0],
    ])
    expect(moved.body.detail.phases[0].jobs[0].operator_key).toBe(operator.key)
    const job = moved.body.detail.phases[0].jobs[0]._key
    const session = (await h.request('GET', `/api/job/${job}/work-session`, { token: operator.token })).body.detail
    expect(session.steps[0].title).toBe('Pulire bene la sede')
    expect(session.work_order.revision.number).toBe(2)

    // Once a job has started, the work order keeps its revision to the end.
    expect((await h.request('POST', `/api/job/${job}/start`, { token: operator.token, body: { idempotency_key: crypto.randomUUID() } })).status).toBe(200)
    const draft2 = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases
    await put(p.key, [{ ...asInput(draft2[0]), production_notes: 'rev 3' }, asInput(draft2[1])])
    await release(p.key, 'Terza')
    const started = await h.request('POST', `/api/work-order/${wo._key}/revision`, { token: production })
    expect(started.status).toBe(409)
    expect(started.body.detail.code).toBe('WORK_ORDER_STARTED')
    const events = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'WORK_ORDER_REVISION_CHANGED').where('subject_key', '=', wo._key).execute()
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ from: 1, to: 2 })])
  })

  test('a running batch is untouched by a draft edit and a new release: the session shows its steps, the batch completes, the record keeps the wording', async () => {
    // An operator of their own: the previous test left a job running for the other one.
    const runner = await userWithScope(h, 'rev.runner', 'operator')
    const p = await product('REV-RUN')
    await release(p.key, 'Prima emissione')
    const wo = (await h.request('POST', '/api/work-order', { token: production, body: { product_key: p.key, quantity: 2, operator_key: runner.key } })).body.detail
    const job = wo.phases[0].jobs[0]._key
    const started = await h.request('POST', `/api/job/${job}/start`, { token: runner.token, body: { idempotency_key: crypto.randomUUID() } })
    expect(started.status).toBe(200)
    const session = async () => (await h.request('GET', `/api/job/${job}/work-session`, { token: runner.token })).body.detail
    const before = await session()
    const batch = before.batch._key
    const [s1, s2, s3] = before.steps.map((s: { _key: string }) => s._key)
    const complete = (step: string, body: Record<string, unknown> = {}) =>
      h.request('POST', `/api/batch/${batch}/steps/${step}/complete`, { token: runner.token, body: { idempotency_key: crypto.randomUUID(), ...body } })
    const c1 = await complete(s1)
    expect(c1.status).toBe(200)

    // The library removes step 2 and rewords step 3 (the scenario), and releases it.
    const draft = (await h.request('GET', `/api/product/${p.key}/process`, { token: library })).body.detail.phases[0]
    const edited = await put(p.key, [{ ...asInput(draft), steps: [draft.steps[0], { ...draft.steps[2], title: 'Verificare la coppia' }] }])
    expect(edited.status).toBe(200)
    await h.request('PATCH', `/api/field/${field}`, { token: admin, body: { name: 'Coppia (Nm)' } })
    expect((await release(p.key, 'Passo 2 tolto')).body.detail.number).toBe(2)

    const during = await session()
    expect(during.steps.map((s: { title: string }) => s.title)).toEqual(['Pulire la sede', 'Serrare le viti', 'Controllare il serraggio'])
    expect(during.work_order.revision.number).toBe(1)
    expect(during.steps[1].fields.map((f: { name: string }) => f.name)).toEqual(['Coppia'])
    expect(during.batch.step_data.map((s: { _key: string }) => s._key)).toEqual([s1, s2, s3])
    expect((await complete(s2, { form_data: [{ field_key: field, value: 5 }] })).status).toBe(200)
    // Step check is on: completing the batch now names only a step the operator is shown (step 3).
    const early = await h.request('POST', `/api/batch/${batch}/complete`, { token: runner.token, body: { idempotency_key: crypto.randomUUID() } })
    expect(early.body.detail).toMatchObject({ code: 'STEPS_NOT_DONE', pending: [s3] })
    expect((await complete(s3)).status).toBe(200)
    expect((await h.request('GET', `/api/batch/${batch}`, { token: runner.token })).body.detail.status).toBe('completed')

    // The record reads the wording the piece was built to.
    const history = (await h.request('GET', `/api/work-order/${wo._key}/history`, { token: production })).body.detail as { event_type: string; names: Record<string, string> }[]
    const names = Object.assign({}, ...history.map((e) => e.names))
    expect(names[s2]).toBe('Serrare le viti')
    expect(names[s3]).toBe('Controllare il serraggio')
    expect((await h.request('GET', `/api/work-order/${wo._key}`, { token: production })).body.detail).toMatchObject({ revision: { number: 1 }, newer_revision: 2 })
  })

  test('deleting an operation or counter only a released revision uses is refused naming the product and revision', async () => {
    const spare = (await createOperation(h, admin, 'Saldatura'))._key
    const key = await insertProduct(h, 'REV-DEL')
    await put(key, [{ operation_key: spare, name: 'Saldare' }])
    await release(key, 'Prima emissione')
    await put(key, [{ operation_key: operation, name: 'Montare' }])
    const refused = await h.request('DELETE', `/api/operation/${spare}`, { token: admin })
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toMatchObject({ code: 'REVISION_IN_USE', product_code: 'REV-DEL', revision: 1 })
    // Released rows cannot be changed behind the services either.
    const released = await h.svc.db.selectFrom('product_phases').select('id').where('product_id', '=', key).where('revision_id', 'is not', null).executeTakeFirstOrThrow()
    await expect(h.svc.db.deleteFrom('product_phases').where('id', '=', released.id).execute()).rejects.toThrow(/released revision/)
  })
})
