import { Plural, Trans, useLingui } from '@lingui/react/macro'
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DepartmentRow } from '../../../../../../src/domains/departments/schemas'
import type { OperationRow } from '../../../../../../src/domains/operations/schemas'
import type { Phase, Process } from '../../../../../../src/domains/process/process'
import type { Step } from '../../../../../../src/domains/process/steps'
import { type PickedProduct, ProductPicker } from '../../../../../components/process/ProductPicker'
import type { ParametersDraft } from '../../../../../components/process/PhaseParametersFields'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'

/** A phase as the process editor holds it: saved phases by key, new ones with a temporary key. */
export type DraftPhase = {
  key: string
  isNew: boolean
  name: string
  operation_key: string
  operation_name: string
  department_key: string | null
  parameters: ParametersDraft
  steps: Step[]
  production_notes: string
  print_templates: string[]
  traceability_level: Phase['traceability_level']
  counter_key: string | null
  component_count: number
}

export const NEW_PREFIX = 'new:'

export const toDraft = (p: Phase): DraftPhase => ({
  key: p._key,
  isNew: false,
  name: p.name,
  operation_key: p.operation_key,
  operation_name: p.operation_name,
  department_key: p.department_key,
  parameters: p.parameters,
  steps: p.steps,
  production_notes: p.production_notes,
  print_templates: p.print_templates,
  traceability_level: p.traceability_level,
  counter_key: p.counter_key,
  component_count: p.component_count,
})

/** The ordered phase list: select a phase; in edit mode move up/down and remove. */
export function PhaseList(props: {
  phases: DraftPhase[]
  selected: string | null
  onSelect: (key: string) => void
  editing: boolean
  departments: Map<string, DepartmentRow>
  problems: Set<string>
  onMove: (index: number, by: -1 | 1) => void
  onRemove: (index: number) => void
}) {
  const { t } = useLingui()
  const { phases } = props
  return (
    <Stack gap={6} data-testid="phase-list">
      {phases.map((p, index) => {
        const active = p.key === props.selected
        const dept = p.department_key ? props.departments.get(p.department_key) : undefined
        return (
          <Paper
            key={p.key}
            withBorder
            radius="md"
            p={0}
            data-testid={`phase-${index}`}
            style={{
              borderColor: props.problems.has(p.key) ? 'var(--mantine-color-red-6)' : active ? 'var(--mantine-color-teal-6)' : undefined,
              borderWidth: active || props.problems.has(p.key) ? 2 : 1,
            }}
          >
            <Group gap={0} wrap="nowrap" align="stretch">
              <UnstyledButton
                onClick={() => props.onSelect(p.key)}
                p="sm"
                style={{ flex: 1, minWidth: 0 }}
                aria-current={active ? 'true' : undefined}
                aria-label={t`Fase ${index + 1}: ${p.name}`}
              >
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge circle size="lg" variant={active ? 'filled' : 'light'}>
                    {index + 1}
                  </Badge>
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate="end">
                      {p.name}
                    </Text>
                    {(p.operation_name !== p.name || dept) && (
                      <Text size="xs" c="dimmed" truncate="end">
                        {[p.operation_name !== p.name ? p.operation_name : null, dept?.code].filter(Boolean).join(' · ')}
                      </Text>
                    )}
                    <Group gap={4} mt={4}>
                      <Badge size="xs" variant="outline" color="gray">
                        <Plural value={p.steps.length} one="# passo" other="# passi" />
                      </Badge>
                      {p.component_count > 0 && (
                        <Badge size="xs" variant="light" color="orange">
                          <Plural value={p.component_count} one="# componente" other="# componenti" />
                        </Badge>
                      )}
                      {p.isNew && (
                        <Badge size="xs" variant="light" color="blue">
                          <Trans>nuova</Trans>
                        </Badge>
                      )}
                    </Group>
                  </div>
                </Group>
              </UnstyledButton>
              {props.editing && (
                <Stack gap={2} p={6} justify="center">
                  <Group gap={2} wrap="nowrap">
                    <Tooltip label={t`Sposta su`}>
                      <ActionIcon variant="subtle" size="sm" aria-label={t`Sposta su la fase ${index + 1}`} disabled={index === 0} onClick={() => props.onMove(index, -1)}>
                        ↑
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t`Sposta giù`}>
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t`Sposta giù la fase ${index + 1}`}
                        disabled={index === phases.length - 1}
                        onClick={() => props.onMove(index, 1)}
                      >
                        ↓
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                  <Tooltip label={t`Rimuovi fase`}>
                    <ActionIcon variant="subtle" color="red" size="sm" mx="auto" aria-label={t`Rimuovi la fase ${index + 1}`} onClick={() => props.onRemove(index)}>
                      ✕
                    </ActionIcon>
                  </Tooltip>
                </Stack>
              )}
            </Group>
          </Paper>
        )
      })}
    </Stack>
  )
}

/** Edit mode: a new phase from an operation (its default steps are copied), in a department. */
export function AddPhase({ operations, departments, onAdd, ready }: { operations: OperationRow[]; departments: DepartmentRow[]; onAdd: (op: OperationRow, dept: string | null) => void; ready: boolean }) {
  const { t } = useLingui()
  const [operation, setOperation] = useState<string | null>(null)
  const [department, setDepartment] = useState<string | null>(null)
  const op = operations.find((o) => o._key === operation)
  return (
    <Paper withBorder radius="md" p="sm" style={{ borderStyle: 'dashed' }} data-testid="add-phase">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          <Trans>Aggiungi una fase</Trans>
        </Text>
        <Select
          label={t`Operazione`}
          placeholder={t`Scegli l'operazione`}
          searchable
          data={operations.map((o) => ({ value: o._key, label: o.name }))}
          value={operation}
          onChange={setOperation}
          nothingFoundMessage={t`Nessuna operazione trovata`}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t`Reparto`}
          placeholder={t`Senza reparto`}
          clearable
          data={departments.map((d) => ({ value: d._key, label: `${d.code} — ${d.name}` }))}
          value={department}
          onChange={setDepartment}
          comboboxProps={{ withinPortal: true }}
        />
        {op && (
          <Text size="xs" c="dimmed">
            <Plural value={op.default_phase_steps.length} _0="L'operazione non ha passi predefiniti." one="Verrà copiato # passo predefinito." other="Verranno copiati # passi predefiniti." />
          </Text>
        )}
        <Button
          variant="light"
          disabled={!op || !ready}
          onClick={() => {
            if (!op) return
            onAdd(op, department)
            setOperation(null)
            setDepartment(null)
          }}
        >
          <Trans>Aggiungi fase</Trans>
        </Button>
      </Stack>
    </Paper>
  )
}

/** Copy the process of another product (whole or chosen phases), appended after this one's. */
export function CopyProcessModal({ productKey, opened, onClose }: { productKey: string; opened: boolean; onClose: () => void }) {
  const { t } = useLingui()
  const [source, setSource] = useState<PickedProduct | null>(null)
  const [mode, setMode] = useState<'all' | 'chosen'>('all')
  const [chosen, setChosen] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { data: sourceProcess, isFetching } = useQuery({ ...trpc.process.get.queryOptions({ key: source?._key ?? '' }), enabled: Boolean(source) })
  const phases = source && sourceProcess?.product_key === source._key ? sourceProcess.phases : []

  function close() {
    setSource(null)
    setMode('all')
    setChosen([])
    setError(null)
    onClose()
  }

  async function copy() {
    if (!source) return
    setBusy(true)
    setError(null)
    try {
      const result: Process = await trpcClient.process.copy.mutate({
        key: productKey,
        from_product_key: source._key,
        ...(mode === 'chosen' ? { phase_keys: chosen } : {}),
      })
      queryClient.setQueryData(trpc.process.get.queryKey({ key: productKey }), result)
      const n = mode === 'chosen' ? chosen.length : phases.length
      notifySuccess(t`Processo copiato: ${n} fasi aggiunte`)
      close()
    } catch (e) {
      setError(errorMessage(toApiError(e)))
    } finally {
      setBusy(false)
    }
  }

  const canCopy = Boolean(source) && phases.length > 0 && (mode === 'all' || chosen.length > 0)
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>{t`Copia il processo di un altro prodotto`}</Text>} size="lg" centered>
      <Stack>
        <Text size="sm" c="dimmed">
          <Trans>Le fasi copiate vengono aggiunte dopo quelle attuali, con i loro passi, parametri e note. I componenti della distinta non vengono copiati.</Trans>
        </Text>
        <ProductPicker
          label={t`Prodotto da cui copiare`}
          value={source}
          onChange={(p) => {
            setSource(p)
            setChosen([])
            setError(null)
          }}
          exclude={[productKey]}
          autoFocus
        />
        {source && !isFetching && sourceProcess && phases.length === 0 && (
          <Alert color="yellow">
            <Trans>Il prodotto scelto non ha fasi da copiare.</Trans>
          </Alert>
        )}
        {phases.length > 0 && (
          <Radio.Group value={mode} onChange={(v) => setMode(v as 'all' | 'chosen')} label={t`Cosa copiare`}>
            <Stack gap="xs" mt={6}>
              <Radio value="all" label={<Plural value={phases.length} one="Tutto il processo (# fase)" other="Tutto il processo (# fasi)" />} />
              <Radio value="chosen" label={t`Solo le fasi scelte`} />
            </Stack>
          </Radio.Group>
        )}
        {phases.length > 0 && mode === 'chosen' && (
          <Checkbox.Group value={chosen} onChange={setChosen} aria-label={t`Fasi da copiare`}>
            <Stack gap={6} pl="md">
              {phases.map((p, i) => (
                <Checkbox
                  key={p._key}
                  value={p._key}
                  label={
                    <Text size="sm">
                      {i + 1}. {p.name}{' '}
                      <Text span c="dimmed" size="xs">
                        ({p.operation_name}, <Plural value={p.steps.length} one="# passo" other="# passi" />)
                      </Text>
                    </Text>
                  }
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={copy} loading={busy} disabled={!canCopy}>
            <Trans>Copia fasi</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** Prints: the template keys assigned to the phase and its steps (the print template library fills this in later). */
export function PhasePrints({ phase }: { phase: DraftPhase }) {
  const stepTemplates = phase.steps.flatMap((s, i) => s.print_templates.map((k) => ({ step: i + 1, key: k })))
  return (
    <Stack gap="sm">
      <Alert color="blue" variant="light">
        <Trans>I modelli di stampa si assegnano dalla libreria dei modelli, che arriverà in seguito. Qui compaiono i modelli già assegnati alla fase e ai suoi passi.</Trans>
      </Alert>
      <Paper withBorder p="md" radius="md">
        <Title order={5} mb="xs">
          <Trans>Modelli della fase</Trans>
        </Title>
        {phase.print_templates.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>Nessun modello assegnato.</Trans>
          </Text>
        ) : (
          <Group gap="xs">
            {phase.print_templates.map((k) => (
              <Badge key={k} variant="outline">
                {k}
              </Badge>
            ))}
          </Group>
        )}
      </Paper>
      {stepTemplates.length > 0 && (
        <Paper withBorder p="md" radius="md">
          <Title order={5} mb="xs">
            <Trans>Modelli dei passi</Trans>
          </Title>
          <Group gap="xs">
            {stepTemplates.map(({ step, key }) => (
              <Badge key={`${step}-${key}`} variant="outline" color="gray">
                {step}. {key}
              </Badge>
            ))}
          </Group>
        </Paper>
      )}
    </Stack>
  )
}
