import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Group, Paper, Stack, Text, Timeline } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import type { HistoryEntry, WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import { formatDateTime } from '../../../../../../src/i18n/format'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { trpc } from '../../../../../lib/trpc'
import { STATUS_LABELS, useWorkOrder } from '../-workorder-ui'
import { Loading } from '../../../../../components/QueryState'

export const Route = createFileRoute('/app/production/workorder/$wo_key/history')({
  component: HistoryTab,
})

/** Readable names of the events a work order and its jobs record. */
const EVENT_LABELS: Record<string, MessageDescriptor> = {
  WORK_ORDER_CREATED: msg`Ordine di lavoro creato`,
  WORK_ORDER_UPDATED: msg`Ordine di lavoro modificato`,
  WORK_ORDER_QUANTITY_CHANGED: msg`Quantità cambiata`,
  WORK_ORDER_CLOSED: msg`Ordine di lavoro chiuso`,
  WORK_ORDER_REOPENED: msg`Ordine di lavoro riaperto`,
  WORK_ORDER_COMPLETED: msg`Ordine di lavoro completato`,
  WORK_ORDER_ARCHIVED: msg`Archiviato`,
  WORK_ORDER_RESTORED: msg`Ripristinato dall'archivio`,
  JOBS_REBALANCED: msg`Job ribilanciati`,
  JOB_ASSIGNED: msg`Job assegnato`,
  JOB_UNASSIGNED: msg`Job non più assegnato`,
  JOB_STARTED: msg`Job avviato`,
  JOB_PAUSED: msg`Job in pausa`,
  JOB_PAUSE_FORCED: msg`Job messo in pausa d'ufficio`,
  JOB_RESUMED: msg`Job ripreso`,
  JOB_CLOSED: msg`Job chiuso`,
  JOB_PROGRESS_RESET: msg`Avanzamento del job azzerato`,
  JOB_PROGRESS_UPDATED: msg`Avanzamento del job corretto`,
  JOB_TIMES_UPDATED: msg`Tempi del job corretti`,
  JOB_ACTIVE_PIECES_CANCELLED: msg`Pezzi in lavorazione annullati`,
  ACTIVE_BATCH_CHANGED: msg`Lotto attivo cambiato`,
  BATCH_COMPLETED: msg`Lotto completato`,
  STEP_COMPLETED: msg`Passo completato`,
  STEP_EDITED: msg`Passo modificato`,
  BACK_ONLINE: msg`Di nuovo in linea`,
  'paused offline': msg`In pausa per assenza di rete`,
  'back online': msg`Di nuovo in linea`,
}

const FIELD_LABELS: Record<string, MessageDescriptor> = {
  line: msg`Linea`,
  notes: msg`Note`,
  start_from: msg`Inizio da`,
  due_by: msg`Consegna entro`,
}

const COLORS: Record<string, string> = {
  WORK_ORDER_CREATED: 'blue',
  WORK_ORDER_COMPLETED: 'green',
  WORK_ORDER_CLOSED: 'gray',
  WORK_ORDER_ARCHIVED: 'gray',
  WORK_ORDER_QUANTITY_CHANGED: 'orange',
  JOB_PAUSE_FORCED: 'red',
}

type Data = Record<string, unknown>
const asNumber = (x: unknown) => (typeof x === 'number' ? x : null)
const asList = (x: unknown) => (Array.isArray(x) ? x : [])
const short = (x: unknown) => {
  if (x === null || x === undefined || x === '') return '—'
  const s = String(x)
  return s.length > 60 ? `${s.slice(0, 57)}…` : s
}

/** The work order's events and those of its jobs, newest first: who, when, what. */
function HistoryTab() {
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  const history = useQuery({ ...trpc.workOrders.history.queryOptions({ key: wo_key }), enabled: Boolean(wo) })
  if (!wo) return null
  if (history.isLoading) return <Loading />
  if (history.isError) return <Alert color="red">{errorMessage(toApiError(history.error))}</Alert>
  const events = history.data ?? []
  if (events.length === 0) {
    return (
      <Text c="dimmed" ta="center" p="lg">
        <Trans>Nessun evento</Trans>
      </Text>
    )
  }
  return (
    <Paper withBorder radius="md" p="lg" maw={900}>
      <Timeline bulletSize={14} lineWidth={2} active={events.length - 1} data-testid="wo-history">
        {events.map((e) => (
          <Timeline.Item key={e._key} color={COLORS[e.event_type] ?? 'blue'} title={<EventTitle event={e} wo={wo} />}>
            <EventDetail event={e} wo={wo} />
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  )
}

function EventTitle({ event, wo }: { event: HistoryEntry; wo: WorkOrderDetail }) {
  const { i18n } = useLingui()
  const label = EVENT_LABELS[event.event_type]
  const job = event.subject_type === 'job' ? jobPlace(wo, event.subject_key) : null
  return (
    <Group gap="xs" wrap="wrap">
      <Text fw={600} size="sm" data-testid="history-event">
        {label ? i18n._(label) : event.event_type}
      </Text>
      {job && (
        <Badge variant="light" size="sm">
          {job}
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {formatDateTime(event.timestamp)} · {event.user_name ?? <Trans>sistema</Trans>}
      </Text>
    </Group>
  )
}

/** "Phase 2 Collaudo" for a job of this work order (jobs removed since show nothing). */
function jobPlace(wo: WorkOrderDetail, jobKey: string | null): string | null {
  for (const p of wo.phases) if (p.jobs.some((j) => j._key === jobKey)) return `${p.position}. ${p.name}`
  return null
}

function EventDetail({ event, wo }: { event: HistoryEntry; wo: WorkOrderDetail }) {
  const { i18n } = useLingui()
  const d = event.data as Data
  switch (event.event_type) {
    case 'WORK_ORDER_CREATED': {
      const jobs = asList(d.jobs)
      const assigned = jobs.filter((j) => (j as Data).operator_key).length
      return (
        <Text size="sm" c="dimmed">
          <Trans>
            {short(d.quantity)} pezzi di {short(d.product_code)}; <Plural value={jobs.length} one="# job" other="# job" />, {assigned} assegnati
          </Trans>
        </Text>
      )
    }
    case 'WORK_ORDER_UPDATED': {
      const changes = (d.changes ?? {}) as Record<string, { from: unknown; to: unknown }>
      return (
        <Stack gap={0}>
          {Object.entries(changes).map(([field, c]) => (
            <Text size="sm" c="dimmed" key={field}>
              {FIELD_LABELS[field] ? i18n._(FIELD_LABELS[field]) : field}: {short(c.from)} → {short(c.to)}
            </Text>
          ))}
        </Stack>
      )
    }
    case 'WORK_ORDER_QUANTITY_CHANGED': {
      const before = (d.before ?? {}) as Data
      const after = (d.after ?? {}) as Data
      const added = asList(after.jobs).filter((j) => (j as Data).new).length
      if (before.quantity === after.quantity) {
        return (
          <Text size="sm" c="dimmed">
            <Trans>
              Stessa quantità ({short(after.quantity)} pezzi), distribuzione tra i job cambiata; <Plural value={added} one="# nuovo job" other="# nuovi job" />
            </Trans>
          </Text>
        )
      }
      return (
        <Text size="sm" c="dimmed">
          <Trans>
            Da {short(before.quantity)} a {short(after.quantity)} pezzi; <Plural value={added} one="# nuovo job" other="# nuovi job" />
          </Trans>
        </Text>
      )
    }
    case 'WORK_ORDER_CLOSED':
      return (
        <Text size="sm" c="dimmed">
          <Plural value={asList(d.jobs_closed).length} one="# job chiuso" other="# job chiusi" />
        </Text>
      )
    case 'WORK_ORDER_REOPENED':
      return d.reason === 'quantity' ? (
        <Text size="sm" c="dimmed">
          <Trans>La quantità è cresciuta oltre quella completata</Trans>
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          <Plural value={asList(d.jobs_reopened).length} one="# job riaperto" other="# job riaperti" />
        </Text>
      )
    case 'WORK_ORDER_COMPLETED':
      return (
        <Text size="sm" c="dimmed">
          <Trans>
            {short(asNumber(d.completed_qt))} di {short(asNumber(d.planned_qt))} pezzi completati
          </Trans>
        </Text>
      )
    case 'WORK_ORDER_ARCHIVED': {
      const status = d.status === 'completed' || d.status === 'closed' ? i18n._(STATUS_LABELS[d.status]) : short(d.status)
      return (
        <Text size="sm" c="dimmed">
          <Trans>Stato: {status}</Trans>
        </Text>
      )
    }
    default:
      return null
  }
}
