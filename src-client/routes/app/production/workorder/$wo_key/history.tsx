import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Button, Center, Group, Paper, Select, Stack, Text, Timeline } from '@mantine/core'
import { useInfiniteQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { HISTORY_CATEGORIES, type HistoryCategory, historyCategory } from '../../../../../../src/domains/work-orders/history'
import type { HistoryEntry, WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import { formatDateTime } from '../../../../../../src/i18n/format'
import { Loading } from '../../../../../components/QueryState'
import { SignatureLines } from '../../../../../components/signatures/SignatureLines'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { pick } from '../../../../../lib/list-search'
import { trpc } from '../../../../../lib/trpc'
import { useWorkOrder } from '../-workorder-ui'
import { CATEGORY_LABELS, EVENT_LABELS, EventDetail, phasePlace } from './-history-event'

const PAGE_SIZE = 50

/** The filters live in the URL: back from elsewhere finds the same view. */
type HistorySearch = { phase?: string; kind?: HistoryCategory }

export const Route = createFileRoute('/app/production/workorder/$wo_key/history')({
  validateSearch: (raw: Record<string, unknown>): HistorySearch => ({
    phase: typeof raw.phase === 'string' && /^[0-9a-f-]{36}$/i.test(raw.phase) ? raw.phase : undefined,
    kind: pick(HISTORY_CATEGORIES, raw.kind),
  }),
  component: HistoryTab,
})

const COLORS: Record<HistoryCategory, string> = {
  work_order: 'blue',
  execution: 'teal',
  corrections: 'orange',
  assignment: 'violet',
  issues: 'red',
  messages: 'gray',
}

/** The work order's events, its jobs', its issues' and its threads', newest first: who, when, what; by phase and kind. */
function HistoryTab() {
  const { t, i18n } = useLingui()
  const { wo_key } = Route.useParams()
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const { data: wo } = useWorkOrder(wo_key)
  const history = useInfiniteQuery({
    ...trpc.workOrders.history.infiniteQueryOptions(
      { key: wo_key, phase_key: search.phase, category: search.kind, limit: PAGE_SIZE },
      { getNextPageParam: (last) => (last.length === PAGE_SIZE ? last.at(-1)!._key : undefined) },
    ),
    enabled: Boolean(wo),
  })
  if (!wo) return null
  const setSearch = (patch: HistorySearch) => navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const events = history.data?.pages.flat() ?? []
  const filtered = Boolean(search.phase || search.kind)

  return (
    <Stack gap="md" maw={900}>
      <Group gap="sm" align="flex-end">
        <Select
          label={t`Fase`}
          placeholder={t`Tutte`}
          clearable
          w={240}
          data={wo.phases.map((p) => ({ value: p._key, label: `${p.position}. ${p.name}` }))}
          value={search.phase ?? null}
          onChange={(x) => setSearch({ phase: x ?? undefined })}
        />
        <Select
          label={t`Tipo`}
          placeholder={t`Tutti`}
          clearable
          w={200}
          data={HISTORY_CATEGORIES.map((c) => ({ value: c, label: i18n._(CATEGORY_LABELS[c]) }))}
          value={search.kind ?? null}
          onChange={(x) => setSearch({ kind: pick(HISTORY_CATEGORIES, x) })}
        />
      </Group>
      {history.isLoading ? (
        <Loading />
      ) : history.isError ? (
        <Alert color="red">{errorMessage(toApiError(history.error))}</Alert>
      ) : events.length === 0 ? (
        <Text c="dimmed" ta="center" p="lg">
          {filtered ? <Trans>Nessun evento corrisponde ai filtri</Trans> : <Trans>Nessun evento</Trans>}
        </Text>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Timeline bulletSize={14} lineWidth={2} active={events.length - 1} data-testid="wo-history">
            {events.map((e) => (
              <Timeline.Item key={e._key} color={COLORS[historyCategory(e)]} title={<EventTitle event={e} wo={wo} />} data-testid="history-item">
                <EventDetail event={e} wo={wo} />
                <SignatureLines signatures={e.signatures} />
              </Timeline.Item>
            ))}
          </Timeline>
          {history.hasNextPage && (
            <Center mt="md">
              <Button variant="default" loading={history.isFetchingNextPage} onClick={() => history.fetchNextPage()}>
                <Trans>Mostra eventi meno recenti</Trans>
              </Button>
            </Center>
          )}
        </Paper>
      )}
    </Stack>
  )
}

function EventTitle({ event, wo }: { event: HistoryEntry; wo: WorkOrderDetail }) {
  const { i18n } = useLingui()
  const label = EVENT_LABELS[event.event_type]
  const phase = phasePlace(wo, event.phase_key)
  return (
    <Group gap="xs" wrap="wrap">
      <Text fw={600} size="sm" data-testid="history-event">
        {label ? i18n._(label) : event.event_type}
      </Text>
      {phase && (
        <Badge variant="light" size="sm">
          {phase}
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {formatDateTime(event.timestamp)} · {event.user_name ?? <Trans>sistema</Trans>}
      </Text>
    </Group>
  )
}
