import { describe, expect, test } from 'bun:test'
import { DEFAULT_PHASE_PARAMETERS } from '../process/phase-parameters'
import type { Step } from '../process/steps'
import { diffRevisions } from './diff'
import type { RevisionBomLine, RevisionContent, RevisionPhase } from './schemas'

const step = (key: string, text: string, extra: Partial<Step> = {}): Step => ({
  _key: key,
  type: 'instruction',
  title: '',
  text,
  media: [],
  fields: [],
  print_templates: [],
  ...extra,
})

const line = (item: string, quantity: number, extra: Partial<RevisionBomLine> = {}): RevisionBomLine => ({
  _key: `l-${item}`,
  phase_key: 'x',
  item_key: item,
  item_code: item.toUpperCase(),
  item_description: '',
  quantity,
  quantity_per: 'item',
  traceability: 'none',
  declared_serials: false,
  ...extra,
})

const phase = (lineage: string, position: number, steps: Step[], bom: RevisionBomLine[] = [], extra: Partial<RevisionPhase> = {}): RevisionPhase => ({
  _key: `row-${lineage}-${position}`,
  lineage,
  position,
  name: `Phase ${lineage}`,
  operation_key: 'op',
  operation_name: 'Assembly',
  department_key: null,
  department_name: null,
  parameters: DEFAULT_PHASE_PARAMETERS,
  steps,
  production_notes: '',
  print_templates: [],
  traceability_level: 'none',
  counter_key: null,
  counter_name: null,
  bom,
  ...extra,
})

const content = (phases: RevisionPhase[], form_fields: RevisionContent['form_fields'] = {}): RevisionContent => ({ phases, form_fields })

describe('revision diff', () => {
  test('the same content in other rows (a copy) is no change', () => {
    const a = content([phase('A', 1, [step('s1', 'Mount')], [line('bolt', 2)])])
    const b = content([{ ...phase('A', 1, [step('s1', 'Mount')], [line('bolt', 2)]), _key: 'another-row' }])
    const diff = diffRevisions(a, b)
    expect(diff.changed).toBe(false)
    expect(diff.phases.map((p) => p.change)).toEqual(['unchanged'])
  })

  test('steps added, removed, reworded and moved; the removed one stays where it stood', () => {
    const a = content([phase('A', 1, [step('s1', 'one'), step('s2', 'two'), step('s3', 'three'), step('s4', 'four')])])
    const b = content([phase('A', 1, [step('s1', 'one'), step('s4', 'four'), step('s3', 'three, carefully'), step('s5', 'five')])])
    const diff = diffRevisions(a, b)
    const steps = diff.phases[0]!.steps.map((s) => [s.key, s.change, s.moved])
    expect(steps).toEqual([
      ['s1', 'unchanged', false],
      ['s2', 'removed', false],
      ['s4', 'unchanged', true],
      ['s3', 'changed', false],
      ['s5', 'added', false],
    ].filter(([, change, moved]) => change !== 'unchanged' || moved))
    const reworded = diff.phases[0]!.steps.find((s) => s.key === 's3')!
    expect([reworded.from?.text, reworded.to?.text]).toEqual(['three', 'three, carefully'])
    expect(diff.phases[0]!.change).toBe('changed')
  })

  test('a step that starts requiring a signature is a change; a stored step without the entry equals one with none', () => {
    const a = content([phase('A', 1, [step('s1', 'Check'), step('s2', 'Old')])])
    const b = content([phase('A', 1, [step('s1', 'Check', { signature: { meaning: 'verified', second_signer: 'quality' } }), step('s2', 'Old', { signature: null })])])
    const diff = diffRevisions(a, b)
    expect(diff.phases[0]!.steps.map((s) => [s.key, s.change, s.from?.signature, s.to?.signature])).toEqual([
      ['s1', 'changed', null, { meaning: 'verified', second_signer: 'quality' }],
    ])
  })

  test('phases added, removed and reordered by lineage', () => {
    const a = content([phase('A', 1, []), phase('B', 2, []), phase('C', 3, [])])
    const b = content([phase('C', 1, []), phase('A', 2, []), phase('D', 3, [])])
    const diff = diffRevisions(a, b)
    expect(diff.phases.map((p) => [p.lineage, p.change, p.moved])).toEqual([
      ['C', 'unchanged', true],
      ['A', 'unchanged', false],
      ['B', 'removed', false],
      ['D', 'added', false],
    ])
    expect(diff.phases[0]!.position).toEqual({ from: 3, to: 1 })
    expect(diff.changed).toBe(true)
  })

  test('phase attributes and parameters, by name', () => {
    const a = content([phase('A', 1, [])])
    const b = content([phase('A', 1, [], [], { name: 'Test', production_notes: 'Gloves', parameters: { ...DEFAULT_PHASE_PARAMETERS, max_offline: 60 } })])
    expect(diffRevisions(a, b).phases[0]!.attributes).toEqual([
      { attribute: 'name', from: 'Phase A', to: 'Test' },
      { attribute: 'production_notes', from: '', to: 'Gloves' },
      { attribute: 'parameters.max_offline', from: 300, to: 60 },
    ])
  })

  test('bom lines: component added, removed, quantity and declared serials changed', () => {
    const a = content([phase('A', 1, [], [line('bolt', 2), line('nut', 1), line('pcb', 1)])])
    const b = content([phase('A', 1, [], [line('bolt', 4), line('pcb', 1, { declared_serials: true }), line('case', 1)])])
    const bom = diffRevisions(a, b).phases[0]!.bom
    expect(bom.map((l) => [l.item_key, l.change])).toEqual([
      ['bolt', 'changed'],
      ['nut', 'removed'],
      ['pcb', 'changed'],
      ['case', 'added'],
    ])
    expect(bom[0]!.from?.quantity).toBe(2)
    expect(bom[0]!.to?.quantity).toBe(4)
    expect(bom[2]!.to?.declared_serials).toBe(true)
  })

  test('form field definitions that changed between the two', () => {
    const field = { _key: 'f1', name: 'Torque', type: 'number', options: [], multiple: false, mandatory: false, help_text: '' }
    const steps = [step('s1', '', { type: 'form', fields: ['f1'] })]
    const a = content([phase('A', 1, steps)], { f1: field })
    const b = content([phase('A', 1, steps)], { f1: { ...field, mandatory: true } })
    const diff = diffRevisions(a, b)
    expect(diff.fields).toEqual([{ key: 'f1', name: 'Torque', change: 'changed', attributes: [{ attribute: 'mandatory', from: false, to: true }] }])
    expect(diff.changed).toBe(true)
  })
})
