import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Checkbox, Group, Pagination, Paper, Progress, Select, Stack, Table, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { MISSION_STATUS_FILTERS, type MissionStatusFilter } from '../../../../../src/domains/missions/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { MISSION_KIND_LABELS, MISSION_STATUS_COLORS, MISSION_STATUS_LABELS } from '../../../../components/missions/labels'
import { NewMissionForm } from '../../../../components/missions/NewMissionForm'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { trpc } from '../../../../lib/trpc'

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
    ...trpc.missions.list.queryOptions({ status, mine: search.mine, page, page_size: 50 }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  })
  const rows = missions.data?.rows ?? []
  const pages = Math.max(1, Math.ceil((missions.data?.total ?? 0) / 50))

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <Trans>Missioni</Trans>
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            <Trans>Movimenti da eseguire per uno scopo: portare in linea i componenti di un ordine, mettere a magazzino i prodotti finiti.</Trans>
          </Text>
        </div>
        {canEdit && !search.new && (
          <Group gap="xs">
            <Button onClick={() => setSearch({ new: 'to_line' })} data-testid="mission-new-to-line">
              <Trans>Porta componenti in linea</Trans>
            </Button>
            <Button variant="light" onClick={() => setSearch({ new: 'put_away' })}>
              <Trans>Metti a magazzino prodotti finiti</Trans>
            </Button>
          </Group>
        )}
      </Group>

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
      {missions.isError && <Text c="red">{errorMessage(toApiError(missions.error))}</Text>}
      <Table.ScrollContainer minWidth={860}>
        <Table striped highlightOnHover data-testid="missions-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Missione`}</Table.Th>
              <Table.Th>{t`Scopo`}</Table.Th>
              <Table.Th>{t`Ordine di lavoro`}</Table.Th>
              <Table.Th>{t`Assegnata a`}</Table.Th>
              <Table.Th>{t`Avanzamento`}</Table.Th>
              <Table.Th>{t`Stato`}</Table.Th>
              <Table.Th>{t`Creata il`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr
                key={m._key}
                style={{ cursor: 'pointer' }}
                onClick={() => navigate({ to: '/app/warehouse/missions/$missionKey', params: { missionKey: m._key } })}
              >
                <Table.Td>
                  <Text fw={600} size="sm">
                    {m.code}
                  </Text>
                </Table.Td>
                <Table.Td>{i18n._(MISSION_KIND_LABELS[m.kind])}</Table.Td>
                <Table.Td>{m.work_order_code ?? ''}</Table.Td>
                <Table.Td>{m.assignee_name ?? <Text c="dimmed" size="sm">{t`Nessuno`}</Text>}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Progress value={m.lines_total ? (100 * m.lines_done) / m.lines_total : 0} w={80} color={m.status === 'done' ? 'green' : 'blue'} />
                    <Text size="sm">
                      {m.lines_done}/{m.lines_total}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge color={MISSION_STATUS_COLORS[m.status]} variant="light">
                    {i18n._(MISSION_STATUS_LABELS[m.status])}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {missions.data && rows.length === 0 && (
        <Text c="dimmed" ta="center">
          <Trans>Nessuna missione</Trans>
        </Text>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination value={page} total={pages} onChange={setPage} />
        </Group>
      )}
    </Stack>
  )
}
