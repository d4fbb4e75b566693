import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Select, Stack, Text, Textarea, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { MISSION_NOTES_MAX, type MissionDetail, type WorkOrderChoice } from '../../../src/domains/missions/schemas'
import { QUANTITY_DECIMALS, QUANTITY_MAX } from '../../../src/domains/movements/schemas'
import { readNumberText } from '../../../src/i18n/number-text'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifyAlert, notifySuccess } from '../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../lib/trpc'
import { NumberTextInput } from '../NumberTextInput'
import { formatQuantity } from '../warehouse/labels'
import { PositionScanInput, ProductScanInput } from '../warehouse/ScanInput'
import { type Picked, type ScanGroup, type ScanResult, useScanGroup } from '../warehouse/scan-group'

type Shortfall = NonNullable<MissionDetail['shortfalls']>[number]

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()
const choiceLabel = (w: WorkOrderChoice) => `${w.code} · ${w.product_code} (${w.planned_qt})`

/**
 * Work orders by code: typed (at least 3 characters) or scanned, and picked from the list. A code
 * typed or scanned whole and not picked is read on Enter, when leaving the field and when the
 * form (`group`, under `name`) is submitted: it becomes that work order, or the field says no
 * work order has it and the submit is refused; the text is never dropped (issue 26).
 */
export function WorkOrderSelect({
  value,
  onChange,
  label,
  required,
  testid,
  group,
  name = 'workOrder',
}: {
  value: string | null
  onChange: (key: string | null, code: string | null) => void
  label: string
  required?: boolean
  testid?: string
  group?: ScanGroup
  name?: string
}) {
  const { t } = useLingui()
  const [typed, setTyped] = useState('')
  const [debounced] = useDebouncedValue(typed.trim(), 250)
  // The work order read from a typed code: an option of its own while the list shows other ones.
  const [picked, setPicked] = useState<WorkOrderChoice | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const choices = useQuery({ ...trpc.missions.workOrderChoices.queryOptions({ search: debounced }), enabled: debounced.length >= 3 })
  const rows = [...(choices.data ?? [])]
  if (picked && picked._key === value && !rows.some((w) => w._key === picked._key)) rows.unshift(picked)
  const data = rows.map((w) => ({ value: w._key, label: choiceLabel(w) }))
  const current = value ? (rows.find((w) => w._key === value) ?? null) : null
  /** The lookup of the text as it is now (one per text, so Enter, blur and submit share it). */
  const reading = useRef<{ code: string; result: Promise<ScanResult> } | null>(null)

  function read(text: string): Promise<ScanResult> {
    const code = text.trim()
    const asPicked = (w: WorkOrderChoice) => ({ _key: w._key, code: w.code, description: w.product_code })
    // Empty (the field shows the chosen one again when left) or the chosen one as shown: nothing to read.
    if (!code || (current && (same(code, choiceLabel(current)) || same(code, current.code)))) {
      setProblem(null)
      return Promise.resolve({ ok: true, value: current ? asPicked(current) : null })
    }
    if (reading.current && same(reading.current.code, code)) return reading.current.result
    const result = (async (): Promise<ScanResult> => {
      const found = await queryClient
        .fetchQuery({ ...trpc.missions.workOrderChoices.queryOptions({ search: code }), staleTime: 0 })
        .then((list) => list.find((w) => same(w.code, code) || same(choiceLabel(w), code)) ?? null)
        .catch(() => null)
      if (!found) {
        setProblem(t`Nessun ordine di lavoro ha il codice «${code}»`)
        return { ok: false }
      }
      setPicked(found)
      setProblem(null)
      setTyped(choiceLabel(found))
      onChange(found._key, found.code)
      return { ok: true, value: asPicked(found) }
    })()
    reading.current = { code, result }
    return result
  }
  const readLatest = useRef(() => read(typed))
  readLatest.current = () => read(typed)
  useEffect(() => (group ? group.add(name, () => readLatest.current()) : undefined), [group, name])

  return (
    <Select
      label={label}
      required={required}
      searchable
      clearable
      w={360}
      maw="100%"
      placeholder={t`Codice dell'ordine (almeno 3 caratteri)`}
      searchValue={typed}
      onSearchChange={(text) => {
        setTyped(text)
        if (text !== typed) {
          setProblem(null)
          reading.current = null
        }
      }}
      data={data}
      value={value}
      filter={({ options }) => options}
      nothingFoundMessage={debounced.length >= 3 && choices.data ? t`Nessun ordine di lavoro` : t`Scrivi almeno 3 caratteri`}
      onChange={(key) => {
        const w = rows.find((r) => r._key === key) ?? null
        setPicked(w)
        setProblem(null)
        onChange(key, w?.code ?? null)
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return
        // An option highlighted in the list is picked by the list itself; otherwise Enter reads the code (a scanner's).
        const list = e.currentTarget.getAttribute('aria-controls')
        if (list && document.getElementById(list)?.querySelector('[data-combobox-selected]')) return
        e.preventDefault()
        void read(e.currentTarget.value)
      }}
      onBlur={(e) => {
        // Leaving the field puts the chosen one's label back (Mantine): the text typed is kept and read instead.
        const text = e.currentTarget.value
        if (text.trim() && !(current && same(text, choiceLabel(current)))) {
          setTyped(text)
          void read(text)
        }
      }}
      error={problem}
      data-testid={testid}
    />
  )
}

/** Warehouse users a mission can be assigned to; `unlabelled` where a heading already says "Assegnata a" (the field keeps it for screen readers). */
export function AssigneeSelect({ value, onChange, testid, unlabelled }: { value: string | null; onChange: (key: string | null) => void; testid?: string; unlabelled?: boolean }) {
  const { t } = useLingui()
  const assignees = useQuery({ ...trpc.missions.assignees.queryOptions(), staleTime: 60_000 })
  return (
    <Select
      label={unlabelled ? undefined : t`Assegnata a`}
      aria-label={t`Assegnata a`}
      placeholder={t`Nessuno`}
      clearable
      searchable
      w={240}
      data={(assignees.data ?? []).map((u) => ({ value: u._key, label: u.name }))}
      value={value}
      onChange={onChange}
      data-testid={testid}
    />
  )
}

/**
 * A new mission: a work order's components to the line (generated from its bom and quantities),
 * or finished goods from the production position to where they are kept.
 */
export function NewMissionForm({ kind, onCreated, onCancel }: { kind: 'to_line' | 'put_away'; onCreated: (key: string) => void; onCancel: () => void }) {
  const { t } = useLingui()
  const settings = useQuery({ ...trpc.movements.settings.queryOptions(), staleTime: 60_000 })
  const [workOrder, setWorkOrder] = useState<string | null>(null)
  const [product, setProduct] = useState<Picked | null>(null)
  const [position, setPosition] = useState<Picked | null>(null)
  const [quantity, setQuantity] = useState('')
  const [assignee, setAssignee] = useState<string | null>(null)
  const [notes, setNotes] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [shortfalls, setShortfalls] = useState<Shortfall[]>([])
  const rules = { min: 0, decimals: QUANTITY_DECIMALS, max: QUANTITY_MAX }
  const scans = useScanGroup()

  async function submit() {
    setProblem(null)
    setShortfalls([])
    const picked = await scans.settle()
    if (!picked) return setProblem(t`Un codice scritto non corrisponde a nulla: correggilo o svuota il campo`)
    const product = picked.product ?? null
    const position = picked.position ?? null
    // The work order as the field reads it now (a code typed and not picked counts).
    const workOrder = picked.workOrder?._key ?? null
    if (kind === 'to_line' && !workOrder) return setProblem(t`Scegli l'ordine di lavoro`)
    if (kind === 'put_away' && !position) return setProblem(t`Scansiona la posizione di destinazione`)
    if (kind === 'put_away' && !workOrder && !product) return setProblem(t`Scegli l'ordine di lavoro o il prodotto`)
    const q = readNumberText(quantity, rules)
    if (!q.ok) return
    setBusy(true)
    try {
      const common = { assignee_key: assignee, notes: notes.trim() || undefined }
      const mission =
        kind === 'to_line'
          ? await trpcClient.missions.toLine.mutate({ work_order_key: workOrder!, to_position_key: position?._key ?? null, ...common })
          : await trpcClient.missions.putAway.mutate({
              work_order_key: workOrder,
              product_key: product?._key ?? null,
              to_position_key: position!._key,
              quantity: q.value && q.value > 0 ? q.value : undefined,
              ...common,
            })
      const code = mission.code
      notifySuccess(plural(mission.lines.length, { one: `Missione ${code} creata con # riga`, other: `Missione ${code} creata con # righe` }))
      const short = (mission.shortfalls ?? []).map((s) => t`${s.product_code}: servono ${formatQuantity(s.needed)}, disponibili ${formatQuantity(s.planned)}`)
      if (short.length) notifyAlert(t`Giacenza insufficiente per alcuni componenti: ${short.join('; ')}`)
      onCreated(mission._key)
    } catch (e) {
      const err = toApiError(e)
      setProblem(errorMessage(err))
      if (Array.isArray(err.extra.shortfalls)) setShortfalls(err.extra.shortfalls as Shortfall[])
    } finally {
      setBusy(false)
    }
  }

  const consumption = settings.data?.default_consumption_position_code
  const production = settings.data?.default_production_position_code
  return (
    <Stack gap="sm" data-testid="new-mission-form">
      <Title order={4}>{kind === 'to_line' ? <Trans>Porta in linea i componenti di un ordine di lavoro</Trans> : <Trans>Metti a magazzino i prodotti finiti</Trans>}</Title>
      <Text size="sm" c="dimmed">
        {kind === 'to_line' ? (
          <Trans>
            Le righe si calcolano dalla distinta base e dalle quantità dell'ordine, meno quanto le sue missioni portano già, prendendo il materiale dalle posizioni
            che lo contengono.
          </Trans>
        ) : (
          <Trans>Le righe prendono i pezzi dalla posizione di produzione e li portano nella posizione scelta.</Trans>
        )}
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <WorkOrderSelect
          label={t`Ordine di lavoro`}
          required={kind === 'to_line'}
          value={workOrder}
          onChange={(k) => setWorkOrder(k)}
          group={scans}
          name="workOrder"
          testid="mission-work-order"
        />
        {kind === 'put_away' && <ProductScanInput label={t`Prodotto`} placeholder={t`Codice`} value={product} onChange={setProduct} w={220} group={scans} name="product" />}
        <PositionScanInput
          label={kind === 'to_line' ? t`Destinazione` : t`Posizione di destinazione`}
          required={kind === 'put_away'}
          placeholder={kind === 'to_line' ? (consumption ?? t`Codice`) : t`Codice`}
          description={kind === 'to_line' ? (consumption ? t`Vuota: la posizione di consumo ${consumption}` : t`Nessuna posizione di consumo predefinita`) : undefined}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={position}
          onChange={setPosition}
          group={scans}
          name="position"
          w={240}
          data-testid="mission-position"
        />
        {kind === 'put_away' && (
          <NumberTextInput
            label={t`Quantità`}
            description={production ? t`Vuota: tutto quello che c'è in ${production}` : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={quantity}
            onChange={setQuantity}
            {...rules}
            w={160}
          />
        )}
        <AssigneeSelect value={assignee} onChange={setAssignee} testid="mission-assignee" />
      </Group>
      <Textarea label={t`Note`} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} maxLength={MISSION_NOTES_MAX} autosize minRows={1} maw={720} />
      {problem && (
        <Alert color="red" data-testid="new-mission-error">
          <Text size="sm">{problem}</Text>
          {shortfalls.map((s) => (
            <Text size="sm" key={s.product_key}>
              {t`${s.product_code}: servono ${formatQuantity(s.needed)}, disponibili ${formatQuantity(s.planned)}`}
            </Text>
          ))}
        </Alert>
      )}
      <Group gap="xs">
        <Button onClick={submit} loading={busy} data-testid="new-mission-submit">
          <Trans>Crea missione</Trans>
        </Button>
        <Button variant="default" onClick={onCancel}>
          <Trans>Annulla</Trans>
        </Button>
      </Group>
    </Stack>
  )
}
