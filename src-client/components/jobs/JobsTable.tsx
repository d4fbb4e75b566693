import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Badge, Button, Chip, Group, Menu, Progress, Select, Stack, Text, Tooltip } from '@mantine/core'
import { useDebouncedCallback } from '@mantine/hooks'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { correctionRefusal, type JobCorrection, type JobFilter } from '../../../src/domains/jobs/rules'
import { JOB_FILTER_ORDER, type JobRow } from '../../../src/domains/jobs/schemas'
import { SearchWrites } from '../../lib/list-search'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { type DataColumn, DataTable } from '../DataTable'
import { CorrectionDialog } from './CorrectionDialog'
import { CORRECTION_LABELS, FILTER_LABELS, OPPOSITE_FILTER, REFUSAL_LABELS } from './job-labels'
import { OperatorSelect, useOperatorOptions, useOperators } from './OperatorSelect'
import { RebalanceDialog, type RebalanceTarget } from './RebalanceDialog'
import { CameraTextInput } from '../scan/CameraTextInput'

export type JobsTableFilters = { filters: JobFilter[]; search: string; operator_key: string | null }
export const NO_JOB_FILTERS: JobsTableFilters = { filters: [], search: '', operator_key: null }

export type JobsTableProps = {
  /** Narrowing the user cannot change here: a department tab, a work order's job list. */
  scope?: { department_key?: string; work_order_key?: string; phase_key?: string }
  /** Controlled filters (kept in the URL by the page), or internal state when left out. */
  value?: JobsTableFilters
  onChange?: (next: JobsTableFilters) => void
  /** Inside a work order: its code and due date need no column. */
  hideWorkOrder?: boolean
  pageSize?: number
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.min(100, (part * 100) / whole) : 0)
const dateText = (d: string | null) => (d ? d.replaceAll('-', '/') : '')

/**
 * The job list (SPEC 4): filter chips that combine, search, operator; operator, phase,
 * quantity and progress, status, readiness, critical and late markers; assignment in place,
 * the rebalance dialog and the production corrections. Paged on the server by keyset.
 */
export function JobsTable({ scope = {}, value, onChange, hideWorkOrder = false, pageSize = 50 }: JobsTableProps) {
  const { t, i18n } = useLingui()
  const [own, setOwn] = useState<JobsTableFilters>(NO_JOB_FILTERS)
  const state = value ?? own
  const setState = (next: JobsTableFilters) => (onChange ? onChange(next) : setOwn(next))

  // Typing searches on the server once the user pauses; the latest filters are read at that moment.
  const latest = useRef({ state, setState })
  latest.current = { state, setState }
  const [text, setText] = useState(state.search)
  // The searches this box wrote that have not come back yet: on a busy machine the URL may echo
  // one after more was typed, and its echo is not a change made elsewhere (it replaced the text
  // typed since: "WO000015" typed became "WO00015").
  const writes = useRef(new SearchWrites<string>()).current
  const pushSearch = useDebouncedCallback((value: string) => {
    const { state: now, setState: set } = latest.current
    if (value.trim() === now.search) return
    writes.wrote(value.trim())
    set({ ...now, search: value.trim() })
  }, 300)
  // The search changed elsewhere (cleared, back in history): the box follows.
  useEffect(() => {
    if (writes.cameBack(state.search)) return
    if (text.trim() !== state.search) setText(state.search)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.search])

  // Keyset paging: the cursor of each page seen so far; a change of filters starts again.
  const filterKey = JSON.stringify([scope, state])
  const [pages, setPages] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: filterKey, cursors: [undefined] })
  const cursors = pages.key === filterKey ? pages.cursors : [undefined]
  const page = cursors.length - 1

  const input = {
    ...scope,
    filters: state.filters.length ? state.filters : undefined,
    search: state.search || undefined,
    operator_key: state.operator_key ?? undefined,
    cursor: cursors[page],
    limit: pageSize,
  }
  const jobs = useQuery({ ...trpc.jobs.list.queryOptions(input), placeholderData: keepPreviousData })
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  const operators = useOperators()
  const operatorOptions = useOperatorOptions()
  const allowUnassigned = settings.data?.allow_unassigned_jobs ?? false
  const queryClient = useQueryClient()

  const [rebalance, setRebalance] = useState<RebalanceTarget | null>(null)
  const [correction, setCorrection] = useState<{ job: JobRow; action: JobCorrection } | null>(null)
  const [assigning, setAssigning] = useState<string | null>(null)

  async function assign(job: JobRow, operatorKey: string | null) {
    if (operatorKey === job.operator_key) return
    setAssigning(job._key)
    try {
      await trpcClient.jobs.assign.mutate({ job_keys: [job._key], operator_key: operatorKey })
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
      notifySuccess(operatorKey ? t`Job assegnato` : t`Job senza operatore`)
    } catch (e) {
      notifyError(e)
    } finally {
      setAssigning(null)
    }
  }

  function toggleFilters(next: string[]) {
    const added = next.find((f) => !state.filters.includes(f as JobFilter)) as JobFilter | undefined
    const opposite = added ? OPPOSITE_FILTER[added] : undefined
    const filters = JOB_FILTER_ORDER.filter((f) => next.includes(f) && f !== opposite)
    setState({ ...state, filters })
  }

  const columns = useMemo<DataColumn<JobRow>[]>(() => {
    const cols: DataColumn<JobRow>[] = []
    if (!hideWorkOrder) {
      cols.push({
        id: 'work_order',
        header: () => t`Ordine di lavoro`,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {row.original.work_order_code}
            </Text>
            <Text size="xs" c="dimmed">
              {row.original.product_code} <Trans>rev {row.original.revision_number}</Trans>
              {row.original.due_by && (
                <Text span size="xs" c={row.original.late ? 'orange.8' : undefined} fw={row.original.late ? 600 : undefined}>
                  {` · ${t`consegna`} ${dateText(row.original.due_by)}`}
                </Text>
              )}
            </Text>
          </Stack>
        ),
      })
    }
    cols.push(
      {
        id: 'phase',
        header: () => t`Fase`,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">
              {row.original.phase_position}. {row.original.phase_name}
            </Text>
            {row.original.department_name && (
              <Text size="xs" c="dimmed">
                {row.original.department_name}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'operator',
        header: () => t`Operatore`,
        cell: ({ row }) => {
          const job = row.original
          const locked = job.status === 'closed' || job.active
          const select = (
            <OperatorSelect
              size="xs"
              w={190}
              aria-label={t`Operatore di ${job.work_order_code} fase ${job.phase_position}`}
              value={job.operator_key}
              currentName={job.operator_name ?? job.operator_username}
              departmentKey={job.department_key}
              placeholder={t`Non assegnato`}
              clearable={allowUnassigned}
              disabled={locked || assigning === job._key}
              onChange={(key) => {
                if (key === null && !allowUnassigned) return
                void assign(job, key)
              }}
            />
          )
          if (!locked) return select
          return (
            <Tooltip label={job.active ? t`In lavorazione: metti in pausa per riassegnare` : t`Job chiuso`} openDelay={300}>
              <div>{select}</div>
            </Tooltip>
          )
        },
      },
      {
        id: 'quantity',
        header: () => t`Avanzamento`,
        cell: ({ row }) => {
          const j = row.original
          return (
            <Stack gap={4} miw={130}>
              <Text size="sm">
                <Trans>
                  {j.completed_qt} / {j.quantity} pz
                </Trans>
                {j.active_qt > 0 && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    <Trans>(+{j.active_qt} in lav.)</Trans>
                  </Text>
                )}
              </Text>
              <Progress.Root size="sm" aria-label={t`Avanzamento`}>
                <Progress.Section value={percent(j.completed_qt, j.quantity)} color="teal" />
                <Progress.Section value={percent(j.active_qt, j.quantity)} color="blue.3" />
              </Progress.Root>
            </Stack>
          )
        },
      },
      {
        id: 'status',
        header: () => t`Stato`,
        cell: ({ row }) => (
          <Stack gap={4} align="flex-start">
            <StatusBadge job={row.original} />
            {row.original.critical && (
              <Badge color="red" variant="filled" size="sm" miw="max-content">
                <Trans>Critico</Trans>
              </Badge>
            )}
            {row.original.late && (
              <Badge color="orange" variant="light" size="sm" miw="max-content">
                <Trans>In ritardo</Trans>
              </Badge>
            )}
          </Stack>
        ),
      },
      {
        id: 'ready',
        header: () => t`Materiale`,
        cell: ({ row }) => {
          const j = row.original
          if (j.status === 'closed') return <Text c="dimmed">—</Text>
          return j.ready ? (
            <Tooltip label={t`${j.available_qt} pezzi disponibili`} openDelay={300}>
              <Badge variant="light" color="teal" miw="max-content">
                <Trans>Pronto</Trans>
              </Badge>
            </Tooltip>
          ) : (
            <Badge variant="light" color="gray" miw="max-content">
              <Trans>Non pronto</Trans>
            </Badge>
          )
        },
      },
      {
        id: 'actions',
        header: () => null,
        cell: ({ row }) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: keeps clicks inside the menu
          <div onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
            <JobMenu
              job={row.original}
              onRebalance={() =>
                setRebalance({
                  work_order_key: row.original.work_order_key,
                  work_order_code: row.original.work_order_code,
                  phase_key: row.original.phase_key,
                  phase_name: row.original.phase_name,
                  department_key: row.original.department_key,
                })
              }
              onCorrection={(action) => setCorrection({ job: row.original, action })}
            />
          </div>
        ),
      },
    )
    return cols
    // Labels follow the language; the operator cells follow the settings and the pending assignment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [i18n.locale, hideWorkOrder, allowUnassigned, assigning, operators.data])

  const rows = jobs.data?.rows ?? []
  const filtered = state.filters.length > 0 || state.search !== '' || state.operator_key !== null
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <CameraTextInput
          label={t`Cerca`}
          placeholder={t`Ordine, prodotto, fase, operatore`}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value)
            pushSearch(e.currentTarget.value)
          }}
          w={260}
        />
        <Select
          label={t`Operatore`}
          placeholder={t`Tutti`}
          clearable
          searchable
          w={220}
          data={operatorOptions}
          value={state.operator_key}
          onChange={(v) => setState({ ...state, operator_key: v })}
        />
        {filtered && (
          <Button
            variant="subtle"
            size="xs"
            onClick={() => {
              pushSearch.cancel()
              setText('')
              setState(NO_JOB_FILTERS)
            }}
          >
            <Trans>Togli i filtri</Trans>
          </Button>
        )}
      </Group>
      <Chip.Group multiple value={state.filters} onChange={toggleFilters}>
        <Group gap={4} aria-label={t`Filtri`} role="group">
          {JOB_FILTER_ORDER.map((f) => (
            <Chip key={f} value={f} size="xs" variant="outline">
              {i18n._(FILTER_LABELS[f])}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <DataTable
        columns={columns}
        data={rows}
        getRowId={(j) => j._key}
        loading={jobs.isLoading}
        empty={filtered ? <Trans>Nessun job corrisponde ai filtri</Trans> : <Trans>Nessun job aperto</Trans>}
      />
      {jobs.isError && (
        <Text c="red" size="sm">
          <Trans>Impossibile caricare i job</Trans>
        </Text>
      )}
      {(page > 0 || jobs.data?.next_cursor) && (
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" disabled={page === 0} onClick={() => setPages({ key: filterKey, cursors: cursors.slice(0, -1) })}>
            <Trans>Precedenti</Trans>
          </Button>
          <Text size="sm" c="dimmed">
            <Trans>Pagina {page + 1}</Trans>
          </Text>
          <Button
            variant="default"
            size="xs"
            disabled={!jobs.data?.next_cursor || jobs.isPlaceholderData}
            onClick={() => setPages({ key: filterKey, cursors: [...cursors, jobs.data?.next_cursor ?? undefined] })}
          >
            <Trans>Successivi</Trans>
          </Button>
        </Group>
      )}
      {rebalance && <RebalanceDialog target={rebalance} onClose={() => setRebalance(null)} />}
      {correction && <CorrectionDialog job={correction.job} action={correction.action} onClose={() => setCorrection(null)} />}
    </Stack>
  )
}

export function StatusBadge({ job }: { job: Pick<JobRow, 'status' | 'active'> }) {
  if (job.active)
    return (
      <Badge color="green" variant="filled" miw="max-content">
        <Trans>In lavorazione</Trans>
      </Badge>
    )
  const labels: Record<JobRow['status'], { color: string; label: ReactNode }> = {
    queued: { color: 'gray', label: <Trans>In coda</Trans> },
    started: { color: 'yellow', label: <Trans>Iniziato</Trans> },
    paused: { color: 'yellow', label: <Trans>In pausa</Trans> },
    closed: { color: 'dark', label: <Trans>Chiuso</Trans> },
  }
  const { color, label } = labels[job.status]
  return (
    <Badge color={color} variant="light" miw="max-content">
      {label}
    </Badge>
  )
}

/** Rebalance the job's phase, and the SPEC 4 corrections, each disabled with its reason when its guard says no. */
function JobMenu({ job, onRebalance, onCorrection }: { job: JobRow; onRebalance: () => void; onCorrection: (a: JobCorrection) => void }) {
  const { t, i18n } = useLingui()
  const [opened, setOpened] = useState(false)
  // Whether the phase has serial-tracked components is only needed for "update progress".
  const detail = useQuery({ ...trpc.jobs.get.queryOptions({ key: job._key }), enabled: opened, staleTime: 30_000 })
  const order: JobCorrection[] = ['pause', 'update_progress', 'reset_progress', 'cancel_active_pieces', 'update_times']
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened} width={280}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t`Azioni per ${job.work_order_code} fase ${job.phase_position}`}>
          ⋮
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRebalance}>
          <Trans>Ribilancia la fase…</Trans>
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>
          <Trans>Correzioni</Trans>
        </Menu.Label>
        {order.map((action) => {
          const waiting = action === 'update_progress' && !detail.data
          const refusal = correctionRefusal(action, job, detail.data?.has_traceability ?? false)
          const disabled = waiting || refusal !== null
          return (
            <Menu.Item
              key={action}
              disabled={disabled}
              color={action === 'reset_progress' || action === 'cancel_active_pieces' ? 'red' : undefined}
              onClick={() => onCorrection(action)}
            >
              <Stack gap={0}>
                <Text size="sm">{i18n._(CORRECTION_LABELS[action])}</Text>
                {refusal && (
                  <Text size="xs" c="dimmed">
                    {i18n._(REFUSAL_LABELS[refusal])}
                  </Text>
                )}
              </Stack>
            </Menu.Item>
          )
        })}
      </Menu.Dropdown>
    </Menu>
  )
}

