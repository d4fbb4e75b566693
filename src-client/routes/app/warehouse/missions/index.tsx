import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Checkbox, Group, Paper, Progress, Select, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { MISSION_STATUS_FILTERS, type MissionRow, type MissionStatusFilter } from '../../../../../src/domains/missions/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { MISSION_KIND_LABELS, MISSION_STATUS_COLORS, MISSION_STATUS_LABELS } from '../../../../components/missions/labels'
import { NewMissionForm } from '../../../../components/missions/NewMissionForm'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { ListDescription, ListHeader, PagedListPage, type RowColumn, RowTable } from '../../../../components/warehouse/ListFrame'
import { trpc } from '../../../../lib/trpc'

const PAGE_SIZE = 50

type Search = { status?: MissionStatusFilter; mine?: boolean; new?: 'to_line' | 'put_away' }

export const Route = createFileRoute('/app/warehouse/missions/')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    status: MISSION_STATUS_FILTERS.includes(s.status as MissionStatusFilter) ? (s.status as MissionStatusFilter) : undefined,
    mine: s.mine === true || s.mine === 'true' ? true : undefined,
    new: s.new === 'to_line' || s.new === 'put_away' ? s.new : undefined,
  }),
  component: MissionsPage,
})

/** SPEC 2 warehouse "missions": the missions to carry out (open and in progress first), new ones from a work order. */
function MissionsPage() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const canEdit = useCanEditWarehouse()
  const [page, setPage] = useState(1)
  const status = search.status ?? 'active'
  const setSearch = (patch: Partial<Search>) => {
    setPage(1)
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  }
  const missions = useQuery({
    ...trpc.missions.list.queryOptions({ status, mine: search.mine, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  })

  const columns: RowColumn<MissionRow>[] = [
    {
      header: t`Missione`,
      cell: (m) => (
        <Text fw={600} size="sm">
          {m.code}
        </Text>
      ),
    },
    { header: t`Scopo`, cell: (m) => i18n._(MISSION_KIND_LABELS[m.kind]) },
    { header: t`Ordine di lavoro`, cell: (m) => m.work_order_code ?? '' },
    { header: t`Assegnata a`, cell: (m) => m.assignee_name ?? <Text c="dimmed" size="sm">{t`Nessuno`}</Text> },
    {
      header: t`Avanzamento`,
      cell: (m) => (
        <Group gap={6} wrap="nowrap">
          <Progress value={m.lines_total ? (100 * m.lines_done) / m.lines_total : 0} w={80} color={m.status === 'done' ? 'green' : 'blue'} />
          <Text size="sm">
            {m.lines_done}/{m.lines_total}
          </Text>
        </Group>
      ),
    },
    {
      header: t`Stato`,
      cell: (m) => (
        <Badge color={MISSION_STATUS_COLORS[m.status]} variant="light">
          {i18n._(MISSION_STATUS_LABELS[m.status])}
        </Badge>
      ),
    },
    { header: t`Creata il`, cell: (m) => formatDateTime(m.created_at) },
  ]

  return (
    <PagedListPage
      header={
        <ListHeader
          title={<Trans>Missioni</Trans>}
          subtitle={
            <ListDescription>
              <Trans>Movimenti da eseguire per uno scopo: portare in linea i componenti di un ordine, mettere a magazzino i prodotti finiti.</Trans>
            </ListDescription>
          }
          actions={
            canEdit &&
            !search.new && (
              <Group gap="xs">
                <Button onClick={() => setSearch({ new: 'to_line' })} data-testid="mission-new-to-line">
                  <Trans>Porta componenti in linea</Trans>
                </Button>
                <Button variant="light" onClick={() => setSearch({ new: 'put_away' })}>
                  <Trans>Metti a magazzino prodotti finiti</Trans>
                </Button>
              </Group>
            )
          }
        />
      }
      query={missions}
      pageSize={PAGE_SIZE}
      page={page}
      onPage={setPage}
      table={(rows) => (
        <RowTable
          testid="missions-table"
          minWidth={860}
          columns={columns}
          rows={rows}
          onRow={(m) => navigate({ to: '/app/warehouse/missions/$missionKey', params: { missionKey: m._key } })}
        />
      )}
      empty={<Trans>Nessuna missione</Trans>}
    >
      {canEdit && search.new && (
        <Paper withBorder radius="md" p="md">
          <NewMissionForm
            kind={search.new}
            onCancel={() => setSearch({ new: undefined })}
            onCreated={(key) => navigate({ to: '/app/warehouse/missions/$missionKey', params: { missionKey: key } })}
          />
        </Paper>
      )}

      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t`Stato`}
          w={200}
          data={[
            { value: 'active', label: t`Da fare e in corso` },
            ...(['open', 'in_progress', 'done', 'cancelled'] as const).map((s) => ({ value: s, label: i18n._(MISSION_STATUS_LABELS[s]) })),
          ]}
          value={status}
          onChange={(v) => setSearch({ status: (v as MissionStatusFilter | null) ?? undefined })}
          allowDeselect={false}
          data-testid="missions-status"
        />
        <Checkbox label={t`Solo le mie`} checked={Boolean(search.mine)} onChange={(e) => setSearch({ mine: e.currentTarget.checked || undefined })} mb={8} />
      </Group>
    </PagedListPage>
  )
}
