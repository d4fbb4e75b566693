import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Button, Grid, Group, Paper, Select, Stack, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import type { OperationRow } from '../../../../../../src/domains/operations/schemas'
import type { Process } from '../../../../../../src/domains/process/process'
import { sameSteps } from '../../../../../../src/domains/process/steps'
import { draftParameters, parametersValid, PhaseParametersFields, PhaseParametersSummary } from '../../../../../components/process/PhaseParametersFields'
import { StepsView } from '../../../../../components/process/StepsView'
import { newStepKey, StepsEditor, stepsValid } from '../../../../../components/steps/StepsEditor'
import { EditModeBar } from '../../../../../components/EditModeBar'
import { LoadError, Loading } from '../../../../../components/QueryState'
import { UnsavedChangesGuard } from '../../../../../components/UnsavedChangesGuard'
import { type ApiError, toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { productMemory, rememberProduct } from '../../../../../lib/product-memory'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { draftChanged } from '../../../../../components/revisions/RevisionBar'
import { PhaseTraceability } from './-phase-traceability'
import { AddPhase, CopyProcessModal, type DraftPhase, NEW_PREFIX, PhaseList, PhasePrints, toDraft } from './-process-parts'

export const Route = createFileRoute('/app/library/product/$product_key/process')({
  component: ProcessPage,
})

const VIEWS = ['parameters', 'procedure', 'notes', 'prints'] as const
type View = (typeof VIEWS)[number]
const isView = (v: unknown): v is View => VIEWS.includes(v as View)

function ProcessPage() {
  const { product_key } = Route.useParams()
  const { data, error } = useQuery(trpc.process.get.queryOptions({ key: product_key }))
  useEffect(() => rememberProduct(product_key, { last_page: 'process' }), [product_key])
  if (error) return <LoadError error={error} />
  if (!data) return <Loading />
  return <ProcessEditor key={product_key} process={data} />
}

const departmentLabel = (d: { code: string; name: string } | undefined) => (d ? `${d.code} — ${d.name}` : undefined)

/** Same phases as saved (the draft compared with the server's process). */
function sameDraft(a: DraftPhase[], b: DraftPhase[]): boolean {
  if (a.length !== b.length) return false
  return a.every((p, i) => {
    const q = b[i]!
    return (
      p.key === q.key &&
      p.name === q.name &&
      p.operation_key === q.operation_key &&
      p.department_key === q.department_key &&
      JSON.stringify(p.parameters) === JSON.stringify(q.parameters) &&
      sameSteps(p.steps, q.steps) &&
      p.production_notes === q.production_notes &&
      JSON.stringify(p.print_templates) === JSON.stringify(q.print_templates) &&
      p.traceability_level === q.traceability_level &&
      p.counter_key === q.counter_key
    )
  })
}

/** Which view shows what a server refusal is about. */
const VIEW_OF_CODE: Record<string, View> = {
  UNKNOWN_COUNTER: 'parameters',
  RELEASE_BATCH_QT_REQUIRED: 'parameters',
  STEP_FIELDS_REQUIRED: 'procedure',
  UNKNOWN_FIELD: 'procedure',
  FIELD_ARCHIVED: 'procedure',
  UNKNOWN_MEDIA: 'procedure',
}

/**
 * The process of a product (SPEC 2 Library, 4 edit modes): ordered phases on the left, the
 * chosen phase's views on the right. Its own edit mode: "Modifica processo" starts a draft of the
 * whole process; Save sends it (`PUT product/{key}/process`), Cancel drops it; leaving with
 * unsaved changes asks first. The last phase and view are remembered per product.
 */
function ProcessEditor({ process }: { process: Process }) {
  const { t } = useLingui()
  const productKey = process.product_key
  const saved = useMemo(() => process.phases.map(toDraft), [process])
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<DraftPhase[]>(saved)
  const [saving, setSaving] = useState(false)
  const [showErrors, setShowErrors] = useState(false)
  const [serverError, setServerError] = useState<ApiError | null>(null)
  const [copyOpen, setCopyOpen] = useState(false)
  const memory = productMemory(productKey)
  const [selected, setSelected] = useState<string | null>(memory.last_phase ?? null)
  const [view, setView] = useState<View>(isView(memory.last_steps) ? memory.last_steps : 'procedure')

  const { data: product } = useQuery(trpc.products.get.queryOptions({ key: productKey }))
  const { data: operations } = useQuery({ ...trpc.operations.list.queryOptions({ page_size: 200 }), enabled: editing })
  const { data: departments = [] } = useQuery(trpc.departments.list.queryOptions())
  const { data: fields = [] } = useQuery(trpc.formFields.list.queryOptions({}))
  const { data: defaults } = useQuery({ ...trpc.settings.defaultPhase.queryOptions(), enabled: editing })
  const departmentsByKey = useMemo(() => new Map(departments.map((d) => [d._key, d])), [departments])

  const phases = editing ? draft : saved
  const current = phases.find((p) => p.key === selected) ?? phases[0] ?? null
  const index = current ? phases.indexOf(current) : -1
  const dirty = editing && !sameDraft(draft, saved)
  const trashed = product?.trash === true

  // Remember the phase and view last seen (saved phases only: new ones have no key yet).
  useEffect(() => {
    if (current && !current.isNew) rememberProduct(productKey, { last_page: 'process', last_phase: current.key, last_steps: view })
  }, [productKey, current?.key, current?.isNew, view])

  const problems = useMemo(() => new Set(showErrors ? draft.filter((p) => !parametersValid(p.parameters) || !stepsValid(p.steps)).map((p) => p.key) : []), [draft, showErrors])

  const update = (key: string, patch: Partial<DraftPhase>) => setDraft((d) => d.map((p) => (p.key === key ? { ...p, ...patch } : p)))

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
    if (current?.isNew) setSelected(saved[0]?.key ?? null)
  }

  function addPhase(op: OperationRow, department: string | null) {
    if (!defaults) return
    const key = `${NEW_PREFIX}${newStepKey()}`
    setDraft((d) => [
      ...d,
      {
        key,
        isNew: true,
        name: op.name,
        operation_key: op._key,
        operation_name: op.name,
        department_key: department,
        parameters: defaults,
        // The operation's default steps, copied with new keys (step keys are unique everywhere).
        steps: op.default_phase_steps.map((s) => ({ ...s, _key: newStepKey() })),
        production_notes: '',
        print_templates: [],
        traceability_level: 'none',
        counter_key: null,
        component_count: 0,
      },
    ])
    setSelected(key)
  }

  function move(i: number, by: -1 | 1) {
    setDraft((d) => {
      const next = [...d]
      const [moved] = next.splice(i, 1)
      next.splice(i + by, 0, moved!)
      return next
    })
  }

  function remove(i: number) {
    const removed = draft[i]
    setDraft((d) => d.filter((_, j) => j !== i))
    if (removed?.key === current?.key) setSelected(draft[i + 1]?.key ?? draft[i - 1]?.key ?? null)
  }

  async function save() {
    setShowErrors(true)
    setServerError(null)
    const invalid = draft.find((p) => !parametersValid(p.parameters) || !stepsValid(p.steps))
    if (invalid) {
      setSelected(invalid.key)
      setView(parametersValid(invalid.parameters) ? 'procedure' : 'parameters')
      return
    }
    setSaving(true)
    try {
      const result = await trpcClient.process.update.mutate({
        key: productKey,
        phases: draft.map((p) => ({
          ...(p.isNew ? {} : { _key: p.key }),
          operation_key: p.operation_key,
          name: p.name.trim(),
          department_key: p.department_key,
          parameters: draftParameters(p.parameters)!,
          steps: p.steps,
          production_notes: p.production_notes,
          print_templates: p.print_templates,
          traceability_level: p.traceability_level,
          counter_key: p.counter_key,
        })),
      })
      queryClient.setQueryData(trpc.process.get.queryKey({ key: productKey }), result)
      await draftChanged()
      // Phase names and order show in the bill of materials too.
      await queryClient.invalidateQueries({ queryKey: trpc.bom.get.queryKey({ key: productKey }) })
      if (current?.isNew) setSelected(result.phases[index]?._key ?? null)
      setEditing(false)
      setShowErrors(false)
      notifySuccess(t`Processo salvato`)
    } catch (e) {
      const error = toApiError(e)
      setServerError(error)
      const at = typeof error.extra.phase === 'number' ? draft[error.extra.phase] : undefined
      if (at) setSelected(at.key)
      const where = VIEW_OF_CODE[error.code]
      if (where) setView(where)
    } finally {
      setSaving(false)
    }
  }

  /** Names of the phases the server refused to delete (they have components). */
  const blockedNames = Array.isArray(serverError?.extra.phases)
    ? saved.filter((p) => (serverError.extra.phases as string[]).includes(p.key)).map((p) => p.name).join(', ')
    : ''
  const workOrders = Array.isArray(serverError?.extra.work_orders) ? (serverError.extra.work_orders as string[]).join(', ') : ''

  return (
    <Stack gap="md">
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <EditModeBar
        title={<Trans>Processo di produzione</Trans>}
        summary={<Trans>{phases.length} fasi</Trans>}
        editing={editing}
        dirty={dirty}
        saving={saving}
        onCancel={cancel}
        onSave={save}
        saveLabel={<Trans>Salva processo</Trans>}
        actions={
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" onClick={() => setCopyOpen(true)} disabled={trashed}>
              <Trans>Copia da un altro prodotto</Trans>
            </Button>
            <Button onClick={startEditing} disabled={trashed}>
              <Trans>Modifica processo</Trans>
            </Button>
          </Group>
        }
      />

      {trashed && (
        <Alert color="gray">
          <Trans>Il prodotto è nel cestino: il processo è in sola lettura. Ripristinalo per modificarlo.</Trans>
        </Alert>
      )}
      {serverError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setServerError(null)} title={t`Processo non salvato`}>
          {errorMessage(serverError)}
          {blockedNames && serverError.code === 'PHASE_HAS_COMPONENTS' && (
            <Text size="sm" mt={4}>
              <Trans>Fasi con componenti: {blockedNames}. Togli prima i componenti dalla distinta base, oppure annulla.</Trans>
            </Text>
          )}
          {blockedNames && serverError.code === 'PHASE_IN_USE' && (
            <Text size="sm" mt={4}>
              <Trans>
                Fasi usate dagli ordini di lavoro {workOrders}: {blockedNames}. Annulla per ripristinarle.
              </Trans>
            </Text>
          )}
        </Alert>
      )}

      {phases.length === 0 && !editing ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="xs">
            <Text fw={600}>
              <Trans>Nessuna fase</Trans>
            </Text>
            <Text size="sm" c="dimmed" ta="center" maw={520}>
              <Trans>Premi «Modifica processo» per aggiungere fasi dalle operazioni, oppure copia il processo di un altro prodotto.</Trans>
            </Text>
          </Stack>
        </Paper>
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            {/* The phase list stays in view while a long procedure scrolls. */}
            <Stack gap="sm" pos="sticky" top={140} mah="calc(100vh - 150px)" style={{ overflowY: 'auto' }} pb={4}>
              <PhaseList
                phases={phases}
                selected={current?.key ?? null}
                onSelect={setSelected}
                editing={editing}
                departments={departmentsByKey}
                problems={problems}
                onMove={move}
                onRemove={remove}
              />
              {editing && phases.length === 0 && (
                <Text size="sm" c="dimmed">
                  <Trans>Nessuna fase: aggiungine una da un'operazione.</Trans>
                </Text>
              )}
              {editing && <AddPhase operations={operations?.rows ?? []} departments={departments} onAdd={addPhase} ready={Boolean(defaults && operations)} />}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {current && (
              <PhaseDetail
                key={current.key}
                phase={current}
                index={index}
                editing={editing}
                view={view}
                onView={setView}
                onChange={(patch) => update(current.key, patch)}
                operations={operations?.rows ?? []}
                departments={departments.map((d) => ({ value: d._key, label: `${d.code} — ${d.name}` }))}
                departmentLabel={current.department_key ? departmentLabel(departmentsByKey.get(current.department_key)) : undefined}
                fields={fields}
                showErrors={showErrors}
              />
            )}
          </Grid.Col>
        </Grid>
      )}
      <CopyProcessModal productKey={productKey} opened={copyOpen} onClose={() => setCopyOpen(false)} />
    </Stack>
  )
}

function PhaseDetail(props: {
  phase: DraftPhase
  index: number
  editing: boolean
  view: View
  onView: (v: View) => void
  onChange: (patch: Partial<DraftPhase>) => void
  operations: OperationRow[]
  departments: { value: string; label: string }[]
  departmentLabel?: string
  fields: Parameters<typeof StepsEditor>[0]['fields']
  showErrors: boolean
}) {
  const { t } = useLingui()
  const { phase, editing } = props
  const parametersError = props.showErrors && !parametersValid(phase.parameters)
  const stepsError = props.showErrors && !stepsValid(phase.steps)
  const operationOptions = props.operations.some((o) => o._key === phase.operation_key)
    ? props.operations.map((o) => ({ value: o._key, label: o.name }))
    : [{ value: phase.operation_key, label: phase.operation_name }, ...props.operations.map((o) => ({ value: o._key, label: o.name }))]

  return (
    <Stack gap="md" data-testid="phase-detail">
      <Paper withBorder p="md" radius="md">
        {editing ? (
          <Group grow align="flex-start">
            <TextInput
              label={t`Nome della fase`}
              value={phase.name}
              maxLength={100}
              onChange={(e) => props.onChange({ name: e.currentTarget.value })}
              placeholder={phase.operation_name}
            />
            <Select
              label={t`Operazione`}
              data={operationOptions}
              value={phase.operation_key}
              onChange={(v) => {
                const op = props.operations.find((o) => o._key === v)
                if (op) props.onChange({ operation_key: op._key, operation_name: op.name })
              }}
              searchable
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label={t`Reparto`}
              placeholder={t`Senza reparto`}
              data={props.departments}
              value={phase.department_key}
              onChange={(v) => props.onChange({ department_key: v })}
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        ) : (
          <div>
            <Title order={4}>
              {props.index + 1}. {phase.name}
            </Title>
            <Group gap="lg" mt={4}>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  <Trans>Operazione</Trans>:
                </Text>{' '}
                {phase.operation_name}
              </Text>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  <Trans>Reparto</Trans>:
                </Text>{' '}
                {props.departmentLabel ?? t`Senza reparto`}
              </Text>
            </Group>
          </div>
        )}
      </Paper>
      <Tabs value={props.view} onChange={(v) => isView(v) && props.onView(v)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="parameters" color={parametersError ? 'red' : undefined}>
            <Trans>Parametri</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="procedure" color={stepsError ? 'red' : undefined} rightSection={<Badge size="xs" variant="light" circle>{phase.steps.length}</Badge>}>
            <Trans>Procedura</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="notes">
            <Trans>Note di produzione</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="prints">
            <Trans>Stampe</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="parameters" pt="md">
          <Stack gap="md">
            <PhaseTraceability value={phase} editing={editing} onChange={props.onChange} />
            {editing ? (
              <PhaseParametersFields value={phase.parameters} onChange={(parameters) => props.onChange({ parameters })} />
            ) : (
              <PhaseParametersSummary value={phase.parameters} />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="procedure" pt="md">
          {editing ? (
            <StepsEditor steps={phase.steps} onChange={(steps) => props.onChange({ steps })} fields={props.fields} showErrors={props.showErrors} />
          ) : (
            <StepsView steps={phase.steps} fields={props.fields} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="notes" pt="md">
          <Textarea
            label={t`Note di produzione`}
            description={t`Indicazioni per chi lavora questa fase: l'operatore le legge nel lavoro.`}
            autosize
            minRows={6}
            maxRows={20}
            maxLength={20_000}
            value={phase.production_notes}
            onChange={(e) => props.onChange({ production_notes: e.currentTarget.value })}
            readOnly={!editing}
            placeholder={editing ? t`Scrivi le note per la produzione` : t`Nessuna nota`}
          />
        </Tabs.Panel>
        <Tabs.Panel value="prints" pt="md">
          <PhasePrints phase={phase} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
