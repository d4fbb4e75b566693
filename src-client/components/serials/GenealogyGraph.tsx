import '@xyflow/react/dist/style.css'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Group, Stack, Text, useComputedColorScheme } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Background, Controls, Handle, type Node, type NodeProps, Position, ReactFlow, useReactFlow, useStore } from '@xyflow/react'
import { useEffect, useMemo, useRef } from 'react'
import { trpc } from '../../lib/trpc'
import { LoadError, Loading } from '../QueryState'
import { GRAPH_MAX_NODES, type GraphNode, genealogyGraph, NODE_HEIGHT, NODE_WIDTH } from './genealogy-graph'

type SerialNode = Node<GraphNode, 'serial'>

const ROLE_COLOR = { self: 'var(--mantine-color-blue-filled)', component: 'var(--mantine-color-teal-6)', container: 'var(--mantine-color-grape-6)' }

/** One serial: its code (a link to it, except the serial shown), its product and, when temporary, a mark. */
function SerialNodeView({ data }: NodeProps<SerialNode>) {
  const { t } = useLingui()
  const body = (
    <>
      <Text size="sm" fw={700} truncate="end" c={data.role === 'self' ? undefined : 'var(--mantine-color-anchor)'}>
        {data.code}
      </Text>
      <Text size="xs" c="dimmed" truncate="end" title={`${data.product_code} ${data.product_description}`}>
        {`${data.product_code} ${data.product_description}`}
      </Text>
      {data.state === 'temporary' && (
        <Text size="xs" c="yellow.8" fw={600}>
          {t`Provvisorio`}
        </Text>
      )}
    </>
  )
  const box = {
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    padding: '6px 10px',
    borderRadius: 8,
    border: `${data.role === 'self' ? 3 : 1}px solid ${ROLE_COLOR[data.role]}`,
    borderLeftWidth: 6,
    background: 'var(--mantine-color-body)',
    display: 'block',
    textDecoration: 'none',
    color: 'inherit',
    overflow: 'hidden',
  } as const
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} style={{ opacity: 0 }} />
      {data.role === 'self' ? (
        <div style={box} data-testid="genealogy-node" data-code={data.code} data-role={data.role}>
          {body}
        </div>
      ) : (
        <Link
          to="/app/traceability/serials/$serialKey"
          params={{ serialKey: data.id }}
          style={box}
          data-testid="genealogy-node"
          data-code={data.code}
          data-role={data.role}
          aria-label={t`Apri il seriale ${data.code}`}
        >
          {body}
        </Link>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} style={{ opacity: 0 }} />
    </>
  )
}
const nodeTypes = { serial: SerialNodeView }
const FIT = { padding: 0.15, maxZoom: 1 }

/** When the box changes size (window resized, rotated tablet) the graph is fitted to it again. */
function FitOnResize() {
  const { fitView } = useReactFlow()
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)
  useEffect(() => {
    if (width > 0 && height > 0) void fitView(FIT)
  }, [width, height, fitView])
  return null
}
const keepClicks = () => {}

/**
 * The genealogy of a serial as a graph (loaded on its own, only when shown): above it what it went
 * into, below it everything it is made of, every level; a click on a serial opens it. Pan and zoom
 * with the mouse, touch or the buttons. Beyond GRAPH_MAX_NODES serials it sends to the tables.
 */
export default function GenealogyGraph({ serialKey }: { serialKey: string }) {
  const { t } = useLingui()
  const colorMode = useComputedColorScheme('light')
  const backward = useQuery(trpc.serials.genealogy.queryOptions({ key: serialKey, direction: 'backward' }))
  const forward = useQuery(trpc.serials.genealogy.queryOptions({ key: serialKey, direction: 'forward' }))
  const tooBig =
    (backward.data?.truncated ?? false) || (backward.data?.rows.length ?? 0) + (forward.data?.rows.length ?? 0) > GRAPH_MAX_NODES + 1
  const graph = useMemo(
    () => (backward.data && forward.data && !tooBig ? genealogyGraph(backward.data.rows, forward.data.rows) : null),
    [backward.data, forward.data, tooBig],
  )
  const nodes = useMemo<SerialNode[]>(
    () =>
      (graph?.nodes ?? []).map((n) => ({
        id: n.id,
        type: 'serial',
        position: { x: n.x, y: n.y },
        data: n,
        draggable: false,
        selectable: false,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
      })),
    [graph],
  )
  // The library's own screen-reader texts, in the user's language (nodes cannot be moved here).
  const ariaLabelConfig = useMemo(() => {
    const open = t`Ogni seriale è un collegamento: Invio lo apre.`
    return {
      'node.a11yDescription.default': open,
      'node.a11yDescription.keyboardDisabled': open,
      'node.a11yDescription.ariaLiveMessage': () => '',
      'edge.a11yDescription.default': t`Collegamento tra un seriale e un suo componente.`,
      'controls.ariaLabel': t`Comandi del grafo`,
      'controls.zoomIn.ariaLabel': t`Ingrandisci`,
      'controls.zoomOut.ariaLabel': t`Riduci`,
      'controls.fitView.ariaLabel': t`Adatta alla finestra`,
      'controls.interactive.ariaLabel': t`Blocca il grafo`,
      'minimap.ariaLabel': t`Mappa del grafo`,
      'handle.ariaLabel': t`Punto di collegamento`,
    }
  }, [t])
  // The graph takes most of the window's height: once drawn, the page scrolls just enough to show it whole.
  const box = useRef<HTMLDivElement>(null)
  const drawn = nodes.length > 0
  useEffect(() => {
    if (drawn) box.current?.scrollIntoView({ block: 'nearest' })
  }, [drawn, serialKey])
  const edges = useMemo(() => (graph?.edges ?? []).map((e) => ({ ...e, type: 'smoothstep', selectable: false })), [graph])
  if (backward.isPending || forward.isPending) return <Loading />
  if (backward.isError) return <LoadError error={backward.error} />
  if (forward.isError) return <LoadError error={forward.error} />
  if (tooBig) {
    return (
      <Alert color="yellow" data-testid="genealogy-graph-too-big">
        <Trans>Questa genealogia ha più di {GRAPH_MAX_NODES} seriali: usa le tabelle "Genealogia: componenti" e "Genealogia: utilizzi".</Trans>
      </Alert>
    )
  }
  const components = (backward.data.rows.length ?? 1) - 1
  const containers = (forward.data.rows.length ?? 1) - 1
  return (
    <Stack gap="xs">
      <Group gap="lg" wrap="wrap" data-testid="genealogy-legend">
        <Legend color={ROLE_COLOR.container} label={t`Contenuto in (${containers})`} />
        <Legend color={ROLE_COLOR.self} label={t`Questo seriale`} />
        <Legend color={ROLE_COLOR.component} label={t`Componenti (${components})`} />
        <Text size="xs" c="dimmed">
          <Trans>Clic su un seriale per aprirlo; trascina e usa la rotellina per muoverti.</Trans>
        </Text>
      </Group>
      <div
        ref={box}
        data-testid="genealogy-graph"
        style={{ height: 'clamp(320px, calc(100dvh - 230px), 640px)', border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          colorMode={colorMode}
          ariaLabelConfig={ariaLabelConfig}
          // Nodes that cannot be moved or selected get no pointer events unless they have a click
          // handler: this one lets the click reach the serial's link inside the node.
          onNodeClick={keepClicks}
          fitView
          fitViewOptions={FIT}
          minZoom={0.1}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} fitViewOptions={FIT} />
          <FitOnResize />
        </ReactFlow>
      </div>
    </Stack>
  )
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <span style={{ width: 12, height: 12, borderRadius: 3, background: color, display: 'inline-block' }} />
      <Text size="xs">{label}</Text>
    </Group>
  )
}
