import { beforeAll, describe, expect, test } from 'bun:test'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { appCode, MISSING_UUID, releaseProduct, tableCounts, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, signIn, userWithScope, useHarness } from '../../test/harness'
import { createDepartment, createField, createOperation, eventsOf, insertProduct, uploadImage } from './test-helpers'

type Phase = { _key: string; name: string; position: number; operation_key: string; department_key: string | null; parameters: PhaseParameters; steps: any[]; production_notes: string; print_templates: string[]; component_count: number }

describe('product process', () => {
  const h = useHarness()
  let admin: string
  let library: string
  let field: string
  let field2: string
  let image: string
  let assembly: Awaited<ReturnType<typeof createOperation>>
  let test2: Awaited<ReturnType<typeof createOperation>>
  let dept: string
  const customDefaults: PhaseParameters = { ...DEFAULT_PHASE_PARAMETERS, max_offline: 900, std_processing_time: 42, auto_new_batch: false }

  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    library = (await userWithScope(h, 'lib.process', 'library')).token
    field = await createField(h, admin, 'Matricola', { mandatory: true })
    field2 = await createField(h, admin, 'Note collaudo')
    image = await uploadImage(h, admin)
    assembly = await createOperation(h, admin, 'Montaggio', [
      { type: 'instruction', title: 'Prepara', text: 'Preleva i componenti', media: [image] },
      { type: 'form', title: 'Registra', fields: [field] },
    ])
    test2 = await createOperation(h, admin, 'Collaudo', [{ type: 'instruction', title: 'Prova', text: 'Avvia il banco' }])
    dept = await createDepartment(h, admin, 'ASM')
    const set = await h.request('PUT', '/api/settings/default-phase', { token: admin, body: customDefaults })
    expect(set.status).toBe(200)
  })

  const get = (product: string, token = library) => h.request('GET', `/api/product/${product}/process`, { token })
  const put = (product: string, phases: unknown[], token = library) => h.request('PUT', `/api/product/${product}/process`, { token, body: { phases } })
  /** The phases as a client sends them back, with optional changes. */
  const asInput = (phases: Phase[]) =>
    phases.map((p) => ({
      _key: p._key,
      operation_key: p.operation_key,
      name: p.name,
      department_key: p.department_key,
      parameters: p.parameters,
      steps: p.steps,
      production_notes: p.production_notes,
      print_templates: p.print_templates,
    }))

  test('an unknown product is 404; a new product has no phases', async () => {
    expect((await get(MISSING_UUID)).status).toBe(404)
    expect((await get('not-a-key')).body.detail.code).toBe('NOT_FOUND')
    expect((await put(MISSING_UUID, [])).status).toBe(404)
    const product = await insertProduct(h, 'P-EMPTY')
    const res = await get(product)
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ product_key: product, phases: [] })
  })

  test('a new phase copies its operation\'s default steps with new keys and the default phase parameters', async () => {
    const product = await insertProduct(h, 'P-ADD')
    const res = await put(product, [{ operation_key: assembly._key, department_key: dept }, { operation_key: test2._key, name: '  Collaudo finale ' }])
    expect(res.status).toBe(200)
    const phases: Phase[] = res.body.detail.phases
    expect(phases.map((p) => [p.position, p.name, p.operation_key, p.department_key])).toEqual([
      [1, 'Montaggio', assembly._key, dept],
      [2, 'Collaudo finale', test2._key, null],
    ])
    expect(phases[0]!.parameters).toEqual(customDefaults)
    expect(phases[0]!.steps.map((s) => [s.type, s.title, s.media, s.fields])).toEqual([
      ['instruction', 'Prepara', [image], []],
      ['form', 'Registra', [], [field]],
    ])
    const opKeys = assembly.default_phase_steps.map((s) => s._key)
    for (const s of phases[0]!.steps) expect(opKeys).not.toContain(s._key)
    expect(new Set(phases.flatMap((p) => p.steps.map((s) => s._key))).size).toBe(3)
    expect(phases[0]).toMatchObject({ production_notes: '', print_templates: [], component_count: 0, operation_name: 'Montaggio' })
    // Two products made from the same operation get different step keys too.
    const other = await insertProduct(h, 'P-ADD-2')
    const again = (await put(other, [{ operation_key: assembly._key }])).body.detail.phases[0]
    for (const s of again.steps) expect(phases[0]!.steps.map((x) => x._key)).not.toContain(s._key)

    const [event] = (await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product)
    expect(event).toMatchObject({ subject_type: 'product', data: { code: 'P-ADD', removed: [], updated: [], reordered: false } })
    expect((event!.data as any).added.map((a: any) => a.name)).toEqual(['Montaggio', 'Collaudo finale'])
    expect(event!.user_id).toBeTruthy()
    expect((await get(product)).body.detail.phases).toEqual(phases)
  })

  test('given parameters and steps are used instead of the defaults', async () => {
    const product = await insertProduct(h, 'P-GIVEN')
    const parameters = { ...DEFAULT_PHASE_PARAMETERS, release_style: 'release_batch', release_batch_qt: 10 }
    const res = await put(product, [
      { operation_key: assembly._key, parameters, steps: [{ type: 'form', title: 'Solo modulo', fields: [field2, field2] }], production_notes: 'Attenzione', print_templates: ['etichetta', 'etichetta'] },
    ])
    expect(res.status).toBe(200)
    const [phase] = res.body.detail.phases
    expect(phase.parameters).toEqual(parameters)
    expect(phase.steps).toEqual([{ _key: expect.any(String), type: 'form', title: 'Solo modulo', text: '', media: [], fields: [field2], print_templates: [], signature: null }])
    expect(phase).toMatchObject({ production_notes: 'Attenzione', print_templates: ['etichetta'] })
  })

  test('a step may require a signature with a meaning and a second signer by permission word (issue 22)', async () => {
    const product = await insertProduct(h, 'P-SIGNED')
    const signature = { meaning: 'verified', second_signer: 'quality' }
    const res = await put(product, [{ operation_key: assembly._key, steps: [{ type: 'instruction', title: 'Controllo', signature }, { type: 'instruction', title: 'Libero' }] }])
    expect(res.status).toBe(200)
    expect(res.body.detail.phases[0].steps.map((s: { signature: unknown }) => s.signature)).toEqual([signature, null])
    const bad = await put(product, [{ operation_key: assembly._key, steps: [{ type: 'instruction', signature: { meaning: 'signed', second_signer: 'boss' } }] }])
    expect(bad.status).toBe(400)
    expect(bad.body.detail.code).toBe('INVALID_INPUT')
  })

  test('kept phases are updated in place: what is sent changes, what is missing stays; the event says what changed', async () => {
    const product = await insertProduct(h, 'P-KEEP')
    const [a, b] = (await put(product, [{ operation_key: assembly._key }, { operation_key: test2._key }])).body.detail.phases as Phase[]
    const stepKeys = a!.steps.map((s) => s._key)
    const res = await put(product, [
      {
        ...asInput([a!])[0],
        name: 'Montaggio rotore',
        department_key: dept,
        parameters: { ...a!.parameters, step_check_force_order: true },
        steps: [{ ...a!.steps[1], title: 'Registra matricola' }, a!.steps[0], { type: 'instruction', title: 'Nuovo passo' }],
      },
      { _key: b!._key, operation_key: test2._key, production_notes: 'Usa il banco 2' },
    ])
    expect(res.status).toBe(200)
    const [a2, b2] = res.body.detail.phases as Phase[]
    expect(a2!._key).toBe(a!._key)
    expect(a2).toMatchObject({ name: 'Montaggio rotore', department_key: dept, parameters: { step_check_force_order: true } })
    expect(a2!.steps.map((s) => s.title)).toEqual(['Registra matricola', 'Prepara', 'Nuovo passo'])
    // Kept steps keep their keys; the new step gets one.
    expect(a2!.steps.slice(0, 2).map((s) => s._key)).toEqual([stepKeys[1], stepKeys[0]])
    expect(stepKeys).not.toContain(a2!.steps[2]._key)
    // Missing parts of a kept phase stay as they were.
    expect(b2).toMatchObject({ _key: b!._key, name: b!.name, parameters: b!.parameters, steps: b!.steps, production_notes: 'Usa il banco 2' })

    const events = (await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product)
    expect(events).toHaveLength(2)
    expect(events[1]!.data).toMatchObject({
      added: [],
      removed: [],
      reordered: false,
      updated: [
        { _key: a!._key, name: 'Montaggio rotore', changed: ['name', 'department', 'parameters', 'steps'] },
        { _key: b!._key, changed: ['production_notes'] },
      ],
    })
    // Sending the same again changes nothing and records nothing.
    const same = await put(product, asInput(res.body.detail.phases))
    expect(same.body.detail).toEqual(res.body.detail)
    expect((await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product)).toHaveLength(2)
    // A department can be cleared with null.
    const cleared = await put(product, [{ ...asInput([a2!])[0], department_key: null }, { _key: b!._key, operation_key: test2._key }])
    expect(cleared.body.detail.phases[0].department_key).toBeNull()
  })

  test('reorder is a PUT with the new order', async () => {
    const product = await insertProduct(h, 'P-ORDER')
    const phases = (await put(product, [{ operation_key: assembly._key }, { operation_key: test2._key }, { operation_key: test2._key, name: 'Imballo' }])).body.detail
      .phases as Phase[]
    const reversed = asInput([...phases].reverse())
    const res = await put(product, reversed)
    expect(res.status).toBe(200)
    expect(res.body.detail.phases.map((p: Phase) => [p._key, p.position])).toEqual(phases.map((p) => p._key).reverse().map((k, i) => [k, i + 1]))
    const last = (await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product).at(-1)!
    expect(last.data).toMatchObject({ reordered: true, added: [], removed: [], updated: [], phases: reversed.map((p) => p._key) })
  })

  test('a missing phase is removed; a phase with components cannot be deleted (409) and nothing is written', async () => {
    const product = await insertProduct(h, 'P-REMOVE')
    const component = await insertProduct(h, 'C-VITE')
    const [a, b, c] = (await put(product, [{ operation_key: assembly._key }, { operation_key: test2._key }, { operation_key: test2._key, name: 'Extra' }])).body
      .detail.phases as Phase[]
    const bom = await h.request('PUT', `/api/product/${product}/bom`, {
      token: library,
      body: { lines: [{ phase_key: a!._key, item_key: component, quantity: 2, quantity_per: 'item' }] },
    })
    expect(bom.status).toBe(200)
    expect((await get(product)).body.detail.phases[0].component_count).toBe(1)

    const before = await tableCounts(h)
    const refused = await put(product, asInput([b!]))
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toMatchObject({ code: 'PHASE_HAS_COMPONENTS', phases: [a!._key] })
    expect(refused.body.detail.message).toContain('a phase with components cannot be deleted')
    expect(await tableCounts(h)).toEqual(before)
    expect((await get(product)).body.detail.phases.map((p: Phase) => p._key)).toEqual([a!._key, b!._key, c!._key])

    const removed = await put(product, asInput([a!, b!]))
    expect(removed.status).toBe(200)
    expect(removed.body.detail.phases.map((p: Phase) => p._key)).toEqual([a!._key, b!._key])
    const last = (await eventsOf(h, 'PROCESS_UPDATED')).filter((e) => e.subject_key === product).at(-1)!
    expect(last.data).toMatchObject({ removed: [{ _key: c!._key, name: 'Extra' }] })
  })

  test('a phase work orders were made from can leave the draft: the released revision keeps it for them', async () => {
    const product = await insertProduct(h, 'P-WORKED')
    const [a, b] = (await put(product, [{ operation_key: assembly._key }, { operation_key: test2._key }])).body.detail.phases as Phase[]
    await releaseProduct(h, admin, product)
    const wo = await h.request('POST', '/api/work-order', { token: admin, body: { product_key: product, quantity: 5 } })
    expect(wo.status).toBe(201)
    const removed = await put(product, asInput([a!]))
    expect(removed.status).toBe(200)
    expect(removed.body.detail.phases.map((p: Phase) => p._key)).toEqual([a!._key])
    const detail = await h.request('GET', `/api/work-order/${wo.body.detail._key}`, { token: admin })
    expect(detail.body.detail.phases.map((p: { name: string }) => p.name)).toEqual([a!.name, b!.name])
    expect(detail.body.detail.revision.number).toBe(1)
  })

  test('unknown phase, operation, department, media and field keys are refused with their codes; nothing is written', async () => {
    const product = await insertProduct(h, 'P-UNKNOWN')
    const otherProduct = await insertProduct(h, 'P-UNKNOWN-OTHER')
    const foreignPhase = (await put(otherProduct, [{ operation_key: test2._key }])).body.detail.phases[0]._key
    const before = await tableCounts(h)
    const cases: [unknown[], number, string][] = [
      [[{ _key: foreignPhase, operation_key: test2._key }], 422, 'UNKNOWN_PHASE'],
      [[{ _key: MISSING_UUID, operation_key: test2._key }], 422, 'UNKNOWN_PHASE'],
      [[{ operation_key: MISSING_UUID }], 422, 'UNKNOWN_OPERATION'],
      [[{ operation_key: test2._key, department_key: MISSING_UUID }], 422, 'WRONG_DEPARTMENT_KEY'],
      [[{ operation_key: test2._key, steps: [{ type: 'instruction', media: [MISSING_UUID] }] }], 400, 'UNKNOWN_MEDIA'],
      [[{ operation_key: test2._key, steps: [{ type: 'form', fields: [MISSING_UUID] }] }], 400, 'UNKNOWN_FIELD'],
      [[{ operation_key: test2._key, steps: [{ type: 'form', fields: [] }] }], 400, 'STEP_FIELDS_REQUIRED'],
      [[{ operation_key: test2._key, steps: [{ type: 'instruction', fields: [field] }] }], 400, 'INVALID_INPUT'],
      [[{ operation_key: test2._key, steps: [{ _key: 'a', type: 'instruction' }, { _key: 'a', type: 'instruction' }] }], 400, 'INVALID_INPUT'],
      [[{ operation_key: test2._key, steps: [{ _key: 'a', type: 'instruction' }] }, { operation_key: test2._key, steps: [{ _key: 'a', type: 'instruction' }] }], 400, 'INVALID_INPUT'],
      [[{ operation_key: test2._key }, { operation_key: 'nope' }], 400, 'INVALID_INPUT'],
      [[{ operation_key: test2._key, steps: [{ type: 'video' }] }], 400, 'INVALID_INPUT'],
    ]
    for (const [phases, status, code] of cases) {
      const res = await put(product, phases)
      expect({ phases, status: res.status, code: appCode(res.body) }).toEqual({ phases, status, code })
    }
    const repeated = await put(otherProduct, [{ _key: foreignPhase, operation_key: test2._key }, { _key: foreignPhase, operation_key: test2._key }])
    expect(repeated.body.detail).toMatchObject({ code: 'INVALID_INPUT', phase: 1 })
    const formStep = await put(product, [{ operation_key: test2._key }, { operation_key: test2._key, steps: [{ type: 'instruction' }, { type: 'form' }] }])
    expect(formStep.body.detail).toMatchObject({ code: 'STEP_FIELDS_REQUIRED', phase: 1, step: 1, message: 'phase 2, step 2: a form step needs at least one field' })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('parameters: every field checked; release_batch needs release_batch_qt > 0', async () => {
    const product = await insertProduct(h, 'P-PARAMS')
    const before = await tableCounts(h)
    const bad = [
      { ...DEFAULT_PHASE_PARAMETERS, max_offline: -1 },
      { ...DEFAULT_PHASE_PARAMETERS, production_batch_qt: 1.5 },
      { ...DEFAULT_PHASE_PARAMETERS, release_style: 'sometimes' },
      { ...DEFAULT_PHASE_PARAMETERS, std_processing_time: 86_401 },
      { ...DEFAULT_PHASE_PARAMETERS, step_check: 'yes' },
      { max_offline: 10 },
    ]
    for (const parameters of bad) {
      const res = await put(product, [{ operation_key: test2._key, parameters }])
      expect({ parameters, status: res.status, code: appCode(res.body) }).toEqual({ parameters, status: 400, code: 'INVALID_INPUT' })
    }
    const release = await put(product, [{ operation_key: test2._key }, { operation_key: test2._key, parameters: { ...DEFAULT_PHASE_PARAMETERS, release_style: 'release_batch', release_batch_qt: 0 } }])
    expect(release.status).toBe(400)
    expect(release.body.detail).toMatchObject({ code: 'RELEASE_BATCH_QT_REQUIRED', phase: 1 })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('step keys are unique everywhere: a key used by another product or operation is replaced', async () => {
    const a = await insertProduct(h, 'P-KEYS-A')
    const b = await insertProduct(h, 'P-KEYS-B')
    const stepA = (await put(a, [{ operation_key: test2._key }])).body.detail.phases[0].steps[0]
    const res = await put(b, [{ operation_key: test2._key, steps: [stepA, { ...assembly.default_phase_steps[0], _key: assembly.default_phase_steps[0]!._key }, { _key: 'mio-passo-1', type: 'instruction', title: 'Mio' }] }])
    expect(res.status).toBe(200)
    const keys = res.body.detail.phases[0].steps.map((s: { _key: string }) => s._key)
    expect(keys[0]).not.toBe(stepA._key)
    expect(keys[1]).not.toBe(assembly.default_phase_steps[0]!._key)
    expect(keys[2]).toBe('mio-passo-1')
    expect((await get(a)).body.detail.phases[0].steps[0]._key).toBe(stepA._key)
    // Moving a step to another phase of the same product keeps its key.
    const [p1] = (await get(b)).body.detail.phases as Phase[]
    const moved = await put(b, [{ ...asInput([p1!])[0], steps: p1!.steps.slice(1) }, { operation_key: assembly._key, steps: [p1!.steps[0]] }])
    expect(moved.body.detail.phases[1].steps[0]._key).toBe(p1!.steps[0]._key)
  })

  test('archived fields: refused in new steps, kept where the product already used them', async () => {
    const product = await insertProduct(h, 'P-ARCHIVED')
    const old = await createField(h, admin, 'Campo vecchio')
    const phase = (await put(product, [{ operation_key: test2._key, steps: [{ type: 'form', fields: [old] }] }])).body.detail.phases[0]
    expect((await h.request('PATCH', `/api/field/${old}`, { token: admin, body: { active: false } })).status).toBe(200)
    const kept = await put(product, [{ _key: phase._key, operation_key: test2._key, steps: [...phase.steps, { type: 'instruction', title: 'altro' }] }])
    expect(kept.status).toBe(200)
    const other = await insertProduct(h, 'P-ARCHIVED-2')
    const refused = await put(other, [{ operation_key: test2._key, steps: [{ type: 'form', fields: [old] }] }])
    expect(refused.status).toBe(400)
    expect(appCode(refused.body)).toBe('FIELD_ARCHIVED')
  })

  test('a field used by a product step is in use: its type cannot change, deleting archives it', async () => {
    const product = await insertProduct(h, 'P-FIELD-USE')
    const used = await createField(h, admin, 'Solo nel prodotto')
    expect((await h.request('GET', `/api/field/${used}`, { token: admin })).body.detail.in_use).toBe(false)
    await put(product, [{ operation_key: test2._key, steps: [{ type: 'form', fields: [used] }] }])
    expect((await h.request('GET', `/api/field/${used}`, { token: admin })).body.detail.in_use).toBe(true)
    const retype = await h.request('PATCH', `/api/field/${used}`, { token: admin, body: { type: 'number' } })
    expect(retype.status).toBe(409)
    expect(retype.body.detail).toMatchObject({ code: 'FIELD_IN_USE', products: ['P-FIELD-USE'] })
    expect(retype.body.detail.message).toContain('product processes: P-FIELD-USE')
    const del = await h.request('DELETE', `/api/field/${used}`, { token: admin })
    expect(del.body.detail).toMatchObject({ deleted: false, archived: true })
  })

  test('a department used by a product phase cannot be deleted', async () => {
    const product = await insertProduct(h, 'P-DEPT-USE')
    const used = await createDepartment(h, admin, 'VRN')
    await put(product, [{ operation_key: test2._key, department_key: used }])
    const res = await h.request('DELETE', `/api/department/${used}`, { token: admin })
    expect(res.status).toBe(409)
    expect(res.body.detail).toMatchObject({ code: 'DEPARTMENT_IN_USE', message: 'the department is used by product phases and cannot be deleted', phases: 1 })
  })

  test('an operation used by a product process cannot be deleted', async () => {
    const product = await insertProduct(h, 'P-OP-USE')
    const op = await createOperation(h, admin, 'Sbavatura')
    await put(product, [{ operation_key: op._key }])
    const res = await h.request('DELETE', `/api/operation/${op._key}`, { token: admin })
    expect(res.status).toBe(409)
    expect(appCode(res.body)).toBe('OPERATION_IN_USE')
  })

  describe('copy the process of another product', () => {
    let source: string
    let sourcePhases: Phase[]
    beforeAll(async () => {
      source = await insertProduct(h, 'P-SOURCE')
      sourcePhases = (
        await put(source, [
          { operation_key: assembly._key, department_key: dept, production_notes: 'Note', print_templates: ['t1'] },
          { operation_key: test2._key, parameters: { ...DEFAULT_PHASE_PARAMETERS, std_processing_time: 7 } },
          { operation_key: test2._key, name: 'Imballo' },
        ])
      ).body.detail.phases
    })
    const copy = (target: string, body: unknown, token = library) => h.request('POST', `/api/product/${target}/process/copy`, { token, body })

    test('the whole process is appended with new phase and step keys', async () => {
      const target = await insertProduct(h, 'P-TARGET')
      const own = (await put(target, [{ operation_key: test2._key, name: 'Mio' }])).body.detail.phases[0]
      const res = await copy(target, { from_product_key: source })
      expect(res.status).toBe(200)
      const phases: Phase[] = res.body.detail.phases
      expect(phases.map((p) => [p.position, p.name])).toEqual([
        [1, 'Mio'],
        [2, 'Montaggio'],
        [3, 'Collaudo'],
        [4, 'Imballo'],
      ])
      expect(phases[0]!._key).toBe(own._key)
      for (const [i, p] of phases.slice(1).entries()) {
        const from = sourcePhases[i]!
        expect(p._key).not.toBe(from._key)
        expect(p).toMatchObject({
          operation_key: from.operation_key,
          department_key: from.department_key,
          parameters: from.parameters,
          production_notes: from.production_notes,
          print_templates: from.print_templates,
          component_count: 0,
        })
        expect(p.steps.map(({ _key, ...s }) => s)).toEqual(from.steps.map(({ _key, ...s }) => s))
        for (const s of p.steps) expect(from.steps.map((x) => x._key)).not.toContain(s._key)
      }
      const [event] = (await eventsOf(h, 'PROCESS_COPIED')).filter((e) => e.subject_key === target)
      expect(event!.data).toMatchObject({ from_product_key: source, from_code: 'P-SOURCE', whole: true })
      expect((event!.data as any).phases).toHaveLength(3)
    })

    test('chosen phases only, in their order in the source', async () => {
      const target = await insertProduct(h, 'P-TARGET-2')
      const res = await copy(target, { from_product_key: source, phase_keys: [sourcePhases[2]!._key, sourcePhases[0]!._key] })
      expect(res.status).toBe(200)
      expect(res.body.detail.phases.map((p: Phase) => p.name)).toEqual(['Montaggio', 'Imballo'])
    })

    test('errors: onto itself, unknown product, unknown phases, nothing to copy; nothing is written', async () => {
      const target = await insertProduct(h, 'P-TARGET-3')
      const empty = await insertProduct(h, 'P-NO-PHASES')
      const other = await insertProduct(h, 'P-OTHER-PHASES')
      const otherPhase = (await put(other, [{ operation_key: test2._key }])).body.detail.phases[0]._key
      const before = await tableCounts(h)
      const cases: [string, unknown, number, string, string][] = [
        [source, { from_product_key: source }, 400, 'PROCESS_COPY_SELF', 'cannot copy the process of a product onto itself'],
        [target, { from_product_key: MISSING_UUID }, 422, 'UNKNOWN_PRODUCT', `unknown product: ${MISSING_UUID}`],
        [target, { from_product_key: source, phase_keys: [otherPhase] }, 422, 'UNKNOWN_PHASE', `unknown phase of product P-SOURCE: ${otherPhase}`],
        [target, { from_product_key: empty }, 422, 'PROCESS_COPY_EMPTY', 'product P-NO-PHASES has no phases to copy'],
        [target, { from_product_key: source, phase_keys: [] }, 400, 'INVALID_INPUT', 'phase_keys: choose at least one phase'],
        [target, { from_product_key: 'x' }, 400, 'INVALID_INPUT', 'from_product_key: from_product_key must be a product key'],
        [MISSING_UUID, { from_product_key: source }, 404, 'NOT_FOUND', 'product not found'],
      ]
      for (const [to, body, status, code, message] of cases) {
        const res = await copy(to, body)
        expect({ body, status: res.status, code: appCode(res.body), message: res.body.detail.message }).toEqual({ body, status, code, message })
      }
      expect(await tableCounts(h)).toEqual(before)
    })

    test('tRPC: process.copy and process.get', async () => {
      const target = await insertProduct(h, 'P-TARGET-TRPC')
      const res = await trpcCall(h, 'process.copy', 'mutation', { key: target, from_product_key: source, phase_keys: [sourcePhases[1]!._key] }, { token: library })
      expect(res.status).toBe(200)
      expect(res.body.result.data.phases.map((p: Phase) => p.name)).toEqual(['Collaudo'])
      const read = await trpcCall(h, 'process.get', 'query', { key: target }, { token: library })
      expect(read.body.result.data).toEqual(res.body.result.data)
    })
  })

  test('a product in the trash is read-only: process and bom changes are refused (409 PRODUCT_IN_TRASH)', async () => {
    const product = await insertProduct(h, 'P-TRASH')
    const source = await insertProduct(h, 'P-TRASH-SOURCE')
    const phases = (await put(product, [{ operation_key: test2._key }])).body.detail.phases
    await put(source, [{ operation_key: test2._key }])
    await h.svc.db.updateTable('products').set({ trashed_at: h.clock.now() }).where('id', '=', product).execute()
    const before = await tableCounts(h)
    expect((await get(product)).body.detail.phases).toEqual(phases)
    for (const res of [
      await put(product, []),
      await h.request('POST', `/api/product/${product}/process/copy`, { token: library, body: { from_product_key: source } }),
      await h.request('PUT', `/api/product/${product}/bom`, { token: library, body: { lines: [] } }),
    ]) {
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 409, code: 'PRODUCT_IN_TRASH' })
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('permissions: library writes; production, operator, quality, traceability and warehouse read', async () => {
    const product = await insertProduct(h, 'P-PERM')
    await put(product, [{ operation_key: test2._key }])
    for (const scope of ['production', 'operator', 'quality', 'traceability', 'warehouse']) {
      const { token } = await userWithScope(h, `reader.${scope}`, scope)
      expect({ scope, status: (await get(product, token)).status }).toEqual({ scope, status: 200 })
      expect({ scope, status: (await h.request('GET', `/api/product/${product}/bom`, { token })).status }).toEqual({ scope, status: 200 })
      const write = await put(product, [], token)
      expect({ scope, status: write.status, code: appCode(write.body) }).toEqual({ scope, status: 403, code: 'NOT_AUTHORISED' })
      const trpc = await trpcCall(h, 'process.update', 'mutation', { key: product, phases: [] }, { token })
      expect({ scope, status: trpc.status }).toEqual({ scope, status: 403 })
    }
    const { token: reporting } = await userWithScope(h, 'reader.reporting', 'reporting')
    expect((await get(product, reporting)).status).toBe(403)
    expect((await h.request('GET', `/api/product/${product}/process`)).status).toBe(401)
    expect((await get(product)).body.detail.phases).toHaveLength(1)
  })
})
