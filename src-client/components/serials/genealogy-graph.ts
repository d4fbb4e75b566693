import { Graph, layout } from '@dagrejs/dagre'
import type { GenealogyRow, SerialState } from '../../../src/domains/serials/schemas'

/** The graph shows at most this many serials; beyond it the indented tables say it all. */
export const GRAPH_MAX_NODES = 400
export const NODE_WIDTH = 210
export const NODE_HEIGHT = 62

export type GraphRole = 'self' | 'component' | 'container'
export type GraphNode = {
  id: string
  code: string
  product_code: string
  product_description: string
  state: SerialState
  role: GraphRole
  /** Levels from the serial: negative above it (what it went into), positive below (what it is made of). */
  level: number
  x: number
  y: number
}
export type GraphEdge = { id: string; source: string; target: string }
export type GenealogyGraph = { nodes: GraphNode[]; edges: GraphEdge[] }

/**
 * One graph from both genealogies of a serial: what it went into above it (forward, a chain up to
 * the outermost serial), what it is made of below it (backward, every level); each edge goes from
 * the serial that contains to the serial it contains. The rows come depth-first (the server's
 * order), so a row's container is the last row seen one level up. A serial seen twice (only over
 * a cycle in bad data) is drawn once. Laid out top-down by dagre.
 */
export function genealogyGraph(backward: GenealogyRow[], forward: GenealogyRow[]): GenealogyGraph {
  const nodes = new Map<string, Omit<GraphNode, 'x' | 'y'>>()
  const edges = new Map<string, GraphEdge>()
  const addNode = (r: GenealogyRow, role: GraphRole, level: number) => {
    if (!nodes.has(r.serial_key)) {
      nodes.set(r.serial_key, { id: r.serial_key, code: r.code, product_code: r.product_code, product_description: r.product_description, state: r.state, role, level })
    }
  }
  const addEdge = (source: string, target: string) => {
    if (source !== target) edges.set(`${source}>${target}`, { id: `${source}>${target}`, source, target })
  }
  const self = backward[0] ?? forward[0]
  if (!self) return { nodes: [], edges: [] }
  addNode(self, 'self', 0)
  const lastAt: string[] = []
  for (const r of backward) {
    lastAt[r.depth] = r.serial_key
    if (r.depth === 0) continue
    addNode(r, 'component', r.depth)
    const above = lastAt[r.depth - 1]
    if (above) addEdge(above, r.serial_key)
  }
  const chain: string[] = []
  for (const r of forward) {
    chain[r.depth] = r.serial_key
    if (r.depth === 0) continue
    addNode(r, 'container', -r.depth)
    const below = chain[r.depth - 1]
    if (below) addEdge(r.serial_key, below)
  }

  const g = new Graph()
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 8, marginy: 8 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes.values()) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT })
  for (const e of edges.values()) g.setEdge(e.source, e.target)
  layout(g)
  return {
    // dagre gives centres; React Flow places nodes by their top-left corner.
    nodes: [...nodes.values()].map((n) => {
      const p = g.node(n.id)
      return { ...n, x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 }
    }),
    edges: [...edges.values()],
  }
}
