import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Alert, Anchor, Badge, Box, Button, Group, Paper, Select, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { readNumberText } from '../../../../../../src/i18n/number-text'
import type { Phase } from '../../../../../../src/domains/process/process'
import {
  BOM_QUANTITY_DECIMALS,
  BOM_QUANTITY_MAX,
  type Bom,
  type BomLine,
  bomLineProblems,
  QUANTITY_PER,
  type QuantityPer,
  TRACEABILITY_LEVELS,
  type TraceabilityLevel,
} from '../../../../../../src/domains/products/bom'
import { type PickedProduct, ProductPicker } from '../../../../../components/process/ProductPicker'
import { newStepKey } from '../../../../../components/steps/StepsEditor'
import { EditModeBar } from '../../../../../components/EditModeBar'
import { NumberTextInput, toNumberText } from '../../../../../components/NumberTextInput'
import { LoadError, Loading } from '../../../../../components/QueryState'
import { UnsavedChangesGuard } from '../../../../../components/UnsavedChangesGuard'
import { type ApiError, toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { rememberProduct } from '../../../../../lib/product-memory'
import { TRACEABILITY_LABELS } from '../../../../../lib/library-labels'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { draftChanged } from '../../../../../components/revisions/RevisionBar'

export const Route = createFileRoute('/app/library/product/$product_key/bom')({
  component: BomPage,
})

const QTY_W = 150
const PER_W = 130
const TRACE_W = 150
const SERIALS_W = 90
const PER_LABELS: Record<QuantityPer, MessageDescriptor> = { item: msg`per pezzo`, job: msg`per lavoro`, batch: msg`per lotto` }

function BomPage() {
  const { product_key } = Route.useParams()
  const bom = useQuery(trpc.bom.get.queryOptions({ key: product_key }))
  const process = useQuery(trpc.process.get.queryOptions({ key: product_key }))
  useEffect(() => rememberProduct(product_key, { last_page: 'bom' }), [product_key])
  const error = bom.error ?? process.error
  if (error) return <LoadError error={error} />
  if (!bom.data || !process.data) return <Loading />
  return <BomEditor key={product_key} bom={bom.data} phases={process.data.phases} />
}

/** A line as the editor holds it; `id` is the saved line key or a temporary one. */
type DraftLine = {
  id: string
  phase_key: string
  item: PickedProduct | null
  item_active: boolean
  /** As typed (NumberTextInput). */
  quantity: string
  quantity_per: QuantityPer
  traceability: TraceabilityLevel
  declared_serials: boolean
}

const toDraft = (l: BomLine): DraftLine => ({
  id: l._key,
  phase_key: l.phase_key,
  item: { _key: l.item_key, code: l.item_code, description: l.item_description },
  item_active: l.item_active,
  quantity: toNumberText(l.quantity),
  quantity_per: l.quantity_per,
  traceability: l.traceability,
  declared_serials: l.declared_serials,
})

/** The typed quantity: null when empty, NaN when not a number (the field says why; bomLineProblems refuses it). */
const quantityOf = (l: DraftLine) => {
  const read = readNumberText(l.quantity, { max: BOM_QUANTITY_MAX, decimals: BOM_QUANTITY_DECIMALS })
  return read.ok ? read.value : Number.NaN
}
const sameLines = (a: DraftLine[], b: DraftLine[]) =>
  a.length === b.length &&
  a.every((l, i) => {
    const m = b[i]!
    return l.phase_key === m.phase_key && l.item?._key === m.item?._key && quantityOf(l) === quantityOf(m) && l.quantity_per === m.quantity_per && l.traceability === m.traceability && l.declared_serials === m.declared_serials
  })

/** Server refusals tied to one line, and which input they belong to. */
const QUANTITY_CODES = ['BOM_QUANTITY_NOT_POSITIVE']

/**
 * The bill of materials (SPEC 3 Bom line, 5): lines grouped by phase. Its own edit mode, separate
 * from the process: "Modifica distinta" starts a draft, Save sends every line (`PUT
 * product/{key}/bom`). The rules of SPEC 5 (positive quantity, an item once per phase) show next
 * to the line while typing; the server's refusals (a cycle, an inactive item ...) show there too.
 */
function BomEditor({ bom, phases }: { bom: Bom; phases: Phase[] }) {
  const { t, i18n } = useLingui()
  const productKey = bom.product_key
  const saved = useMemo(() => bom.lines.map(toDraft), [bom])
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<DraftLine[]>(saved)
  const [saving, setSaving] = useState(false)
  const [showErrors, setShowErrors] = useState(false)
  const [serverError, setServerError] = useState<(ApiError & { lineId?: string }) | null>(null)
  const { data: product } = useQuery(trpc.products.get.queryOptions({ key: productKey }))
  const trashed = product?.trash === true

  const lines = editing ? draft : saved
  // Lines in the order they are shown (and sent): by phase, then as added.
  const ordered = useMemo(() => phases.flatMap((p) => lines.filter((l) => l.phase_key === p._key)), [phases, lines])
  const dirty = editing && !sameLines(ordered, phases.flatMap((p) => saved.filter((l) => l.phase_key === p._key)))

  const errors = useMemo(() => {
    const byId = new Map<string, { item?: string; quantity?: string }>()
    const set = (id: string, where: 'item' | 'quantity', text: string) => byId.set(id, { ...byId.get(id), [where]: byId.get(id)?.[where] ?? text })
    if (!editing) return byId
    const problems = bomLineProblems(ordered.map((l) => ({ phase_key: l.phase_key, item_key: l.item?._key ?? '', quantity: quantityOf(l) })))
    for (const p of problems) {
      const id = ordered[p.index]!.id
      if (p.code === 'BOM_QUANTITY_NOT_POSITIVE') set(id, 'quantity', quantityOf(ordered[p.index]!) === null ? t`Inserisci la quantità` : t`La quantità deve essere positiva`)
      else set(id, 'item', t`Un articolo non può ripetersi in una fase`)
    }
    if (showErrors) for (const l of ordered) if (!l.item) set(l.id, 'item', t`Scegli il componente`)
    if (serverError?.lineId) set(serverError.lineId, QUANTITY_CODES.includes(serverError.code) ? 'quantity' : 'item', errorMessage(serverError))
    return byId
  }, [ordered, editing, showErrors, serverError, t])

  const update = (id: string, patch: Partial<DraftLine>) => {
    setDraft((d) => d.map((l) => (l.id === id ? { ...l, ...patch } : l)))
    if (serverError?.lineId === id) setServerError(null)
  }

  function startEditing() {
    setDraft(saved)
    setShowErrors(false)
    setServerError(null)
    setEditing(true)
  }

  function cancel() {
    setDraft(saved)
    setEditing(false)
    setShowErrors(false)
    setServerError(null)
  }

  async function save() {
    setShowErrors(true)
    setServerError(null)
    const complete = ordered.every((l) => l.item)
    const problems = bomLineProblems(ordered.map((l) => ({ phase_key: l.phase_key, item_key: l.item?._key ?? '', quantity: quantityOf(l) })))
    if (!complete || problems.length) return
    setSaving(true)
    try {
      const result = await trpcClient.bom.update.mutate({
        key: productKey,
        lines: ordered.map((l) => ({ phase_key: l.phase_key, item_key: l.item!._key, quantity: quantityOf(l)!, quantity_per: l.quantity_per, traceability: l.traceability, declared_serials: l.declared_serials })),
      })
      queryClient.setQueryData(trpc.bom.get.queryKey({ key: productKey }), result)
      await draftChanged()
      // Component counts per phase show in the process.
      await queryClient.invalidateQueries({ queryKey: trpc.process.get.queryKey({ key: productKey }) })
      setEditing(false)
      setShowErrors(false)
      notifySuccess(t`Distinta base salvata`)
    } catch (e) {
      const error = toApiError(e)
      const line = typeof error.extra.line === 'number' ? ordered[error.extra.line] : undefined
      setServerError(Object.assign(error, { lineId: line?.id }))
    } finally {
      setSaving(false)
    }
  }

  const hasErrors = editing && errors.size > 0

  return (
    <Stack gap="md">
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <EditModeBar
        title={<Trans>Distinta base</Trans>}
        summary={<Trans>{saved.length} componenti</Trans>}
        editing={editing}
        dirty={dirty}
        saving={saving}
        onCancel={cancel}
        onSave={save}
        saveLabel={<Trans>Salva distinta</Trans>}
        actions={
          <Button onClick={startEditing} disabled={trashed || phases.length === 0}>
            <Trans>Modifica distinta</Trans>
          </Button>
        }
      />

      {trashed && (
        <Alert color="gray">
          <Trans>Il prodotto è nel cestino: la distinta è in sola lettura. Ripristinalo per modificarla.</Trans>
        </Alert>
      )}
      {serverError && !serverError.lineId && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setServerError(null)} title={t`Distinta non salvata`}>
          {errorMessage(serverError)}
        </Alert>
      )}
      {showErrors && hasErrors && !serverError && (
        <Alert color="red" role="alert">
          <Trans>Correggi le righe evidenziate prima di salvare.</Trans>
        </Alert>
      )}

      {phases.length === 0 && (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="xs">
            <Text fw={600}>
              <Trans>Il prodotto non ha fasi</Trans>
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              <Trans>
                I componenti si consumano in una fase del processo: aggiungi prima le fasi nella scheda{' '}
                <Anchor renderRoot={(props) => <Link {...props} to="/app/library/product/$product_key/process" params={{ product_key: productKey }} />}>
                  Processo
                </Anchor>
                .
              </Trans>
            </Text>
          </Stack>
        </Paper>
      )}

      {phases.map((phase, phaseIndex) => {
        const phaseLines = lines.filter((l) => l.phase_key === phase._key)
        return (
          <Paper key={phase._key} withBorder radius="md" p="md" data-testid={`bom-phase-${phaseIndex}`}>
            <Group justify="space-between" mb="sm">
              <Group gap="xs">
                <Badge circle size="lg" variant="light">
                  {phaseIndex + 1}
                </Badge>
                <Title order={5}>{phase.name}</Title>
                {phase.operation_name !== phase.name && (
                  <Text size="sm" c="dimmed">
                    {phase.operation_name}
                  </Text>
                )}
              </Group>
              {editing && (
                <Button
                  variant="light"
                  size="compact-sm"
                  onClick={() =>
                    setDraft((d) => [...d, { id: `new:${newStepKey()}`, phase_key: phase._key, item: null, item_active: true, quantity: '1', quantity_per: 'item', traceability: 'none', declared_serials: false }])
                  }
                >
                  <Trans>Aggiungi componente</Trans>
                </Button>
              )}
            </Group>
            {phaseLines.length === 0 ? (
              <Text size="sm" c="dimmed">
                <Trans>Nessun componente in questa fase.</Trans>
              </Text>
            ) : editing ? (
              <Stack gap="xs">
                <Group gap="sm" wrap="nowrap" aria-hidden>
                  <Text size="xs" c="dimmed" fw={600} style={{ flex: 1 }}>
                    <Trans>Componente</Trans>
                  </Text>
                  <Text size="xs" c="dimmed" fw={600} w={QTY_W}>
                    <Trans>Quantità</Trans>
                  </Text>
                  <Text size="xs" c="dimmed" fw={600} w={PER_W}>
                    <Trans>Per</Trans>
                  </Text>
                  <Text size="xs" c="dimmed" fw={600} w={TRACE_W}>
                    <Trans>Tracciabilità</Trans>
                  </Text>
                  <Text size="xs" c="dimmed" fw={600} w={SERIALS_W}>
                    <Trans>Seriali dichiarati</Trans>
                  </Text>
                  <Box w={36} />
                </Group>
                {phaseLines.map((l, i) => {
                  const err = errors.get(l.id)
                  return (
                    <Group key={l.id} gap="sm" align="flex-start" wrap="nowrap" data-testid={`bom-line-${phaseIndex}-${i}`}>
                      <div style={{ flex: 1, minWidth: 0 }}>
                        <ProductPicker
                          aria-label={t`Componente ${i + 1} della fase ${phaseIndex + 1}`}
                          value={l.item}
                          onChange={(item) => update(l.id, { item, item_active: true })}
                          exclude={[productKey]}
                          error={err?.item}
                        />
                      </div>
                      <NumberTextInput
                        aria-label={t`Quantità del componente ${i + 1} della fase ${phaseIndex + 1}`}
                        w={QTY_W}
                        max={BOM_QUANTITY_MAX}
                        decimals={BOM_QUANTITY_DECIMALS}
                        value={l.quantity}
                        onChange={(quantity) => update(l.id, { quantity })}
                        error={err?.quantity}
                      />
                      <Select
                        aria-label={t`Quantità per, componente ${i + 1} della fase ${phaseIndex + 1}`}
                        w={PER_W}
                        data={QUANTITY_PER.map((v) => ({ value: v, label: i18n._(PER_LABELS[v]) }))}
                        value={l.quantity_per}
                        onChange={(v) => v && update(l.id, { quantity_per: v as QuantityPer })}
                        allowDeselect={false}
                        comboboxProps={{ withinPortal: true }}
                      />
                      <Select
                        aria-label={t`Tracciabilità, componente ${i + 1} della fase ${phaseIndex + 1}`}
                        w={TRACE_W}
                        data={TRACEABILITY_LEVELS.map((v) => ({ value: v, label: i18n._(TRACEABILITY_LABELS[v]) }))}
                        value={l.traceability}
                        onChange={(v) => v && update(l.id, { traceability: v as TraceabilityLevel })}
                        allowDeselect={false}
                        comboboxProps={{ withinPortal: true }}
                      />
                      <Box w={SERIALS_W} pt={8}>
                        <Switch
                          aria-label={t`Seriali dichiarati, componente ${i + 1} della fase ${phaseIndex + 1}`}
                          checked={l.declared_serials}
                          onChange={(e) => update(l.id, { declared_serials: e.currentTarget.checked })}
                        />
                      </Box>
                      <Tooltip label={t`Rimuovi componente`}>
                        <ActionIcon
                          variant="light"
                          color="red"
                          size={36}
                          aria-label={t`Rimuovi il componente ${i + 1} della fase ${phaseIndex + 1}`}
                          onClick={() => setDraft((d) => d.filter((x) => x.id !== l.id))}
                        >
                          ✕
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  )
                })}
              </Stack>
            ) : (
              <Table striped highlightOnHover verticalSpacing={6} layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w="22%">
                      <Trans>Codice</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Descrizione</Trans>
                    </Table.Th>
                    <Table.Th ta="right" w="12%">
                      <Trans>Quantità</Trans>
                    </Table.Th>
                    <Table.Th w="14%" pl="lg">
                      <Trans>Per</Trans>
                    </Table.Th>
                    <Table.Th w="16%">
                      <Trans>Tracciabilità</Trans>
                    </Table.Th>
                    <Table.Th w="14%">
                      <Trans>Seriali dichiarati</Trans>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {phaseLines.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Anchor
                            renderRoot={(props) => <Link {...props} to="/app/library/product/$product_key" params={{ product_key: l.item!._key }} />}
                            fw={600}
                            size="sm"
                          >
                            {l.item!.code}
                          </Anchor>
                          {!l.item_active && (
                            <Badge size="xs" color="gray" variant="outline">
                              <Trans>inattivo</Trans>
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{l.item!.description}</Table.Td>
                      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {i18n.number(quantityOf(l) ?? 0, { maximumFractionDigits: 4 })}
                      </Table.Td>
                      <Table.Td pl="lg">{i18n._(PER_LABELS[l.quantity_per])}</Table.Td>
                      <Table.Td>{i18n._(TRACEABILITY_LABELS[l.traceability])}</Table.Td>
                      <Table.Td data-testid="bom-declared-serials">{l.declared_serials ? t`Sì` : t`No`}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        )
      })}
    </Stack>
  )
}
