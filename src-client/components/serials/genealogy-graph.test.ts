import { describe, expect, test } from 'bun:test'
import type { GenealogyRow } from '../../../src/domains/serials/schemas'
import { genealogyGraph, NODE_HEIGHT } from './genealogy-graph'

const row = (depth: number, code: string): GenealogyRow => ({
  depth,
  serial_key: `k-${code}`,
  code,
  product_code: `P-${code}`,
  product_description: '',
  state: 'final',
  link_key: depth === 0 ? null : `l-${code}`,
  created_at: 0,
})

describe('genealogyGraph', () => {
  // PUMP holds MOTOR and BOARD, BOARD holds CTL; PUMP went into SKID, SKID into CONTAINER.
  const backward = [row(0, 'PUMP'), row(1, 'BOARD'), row(2, 'CTL'), row(1, 'MOTOR')]
  const forward = [row(0, 'PUMP'), row(1, 'SKID'), row(2, 'CONTAINER')]

  test('edges go from the containing serial to the contained one, both ways, every level', () => {
    const g = genealogyGraph(backward, forward)
    expect(g.nodes.map((n) => `${n.code}:${n.role}:${n.level}`).sort()).toEqual(
      ['BOARD:component:1', 'CONTAINER:container:-2', 'CTL:component:2', 'MOTOR:component:1', 'PUMP:self:0', 'SKID:container:-1'].sort(),
    )
    expect(g.edges.map((e) => e.id).sort()).toEqual(['k-BOARD>k-CTL', 'k-CONTAINER>k-SKID', 'k-PUMP>k-BOARD', 'k-PUMP>k-MOTOR', 'k-SKID>k-PUMP'].sort())
  })

  test('laid out top-down: containers above the serial, components below, siblings side by side', () => {
    const g = genealogyGraph(backward, forward)
    const y = (code: string) => g.nodes.find((n) => n.code === code)!.y
    const x = (code: string) => g.nodes.find((n) => n.code === code)!.x
    expect(y('CONTAINER')).toBeLessThan(y('SKID'))
    expect(y('SKID')).toBeLessThan(y('PUMP'))
    expect(y('PUMP')).toBeLessThan(y('MOTOR'))
    expect(y('BOARD')).toBe(y('MOTOR'))
    expect(y('CTL') - y('BOARD')).toBeGreaterThanOrEqual(NODE_HEIGHT)
    expect(x('BOARD')).not.toBe(x('MOTOR'))
  })

  test('a serial alone is one node; no rows, no graph; a serial seen twice over bad data is drawn once', () => {
    expect(genealogyGraph([row(0, 'A')], [row(0, 'A')]).nodes).toHaveLength(1)
    expect(genealogyGraph([], [])).toEqual({ nodes: [], edges: [] })
    const cyclic = genealogyGraph([row(0, 'X'), row(1, 'Y'), row(2, 'X'), row(3, 'Y')], [row(0, 'X')])
    expect(cyclic.nodes.map((n) => n.code).sort()).toEqual(['X', 'Y'])
    expect(cyclic.edges.map((e) => e.id).sort()).toEqual(['k-X>k-Y', 'k-Y>k-X'])
  })
})
