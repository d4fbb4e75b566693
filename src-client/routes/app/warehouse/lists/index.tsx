import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Pagination, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { MovementListKind } from '../../../../../src/domains/missions/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { DateField } from '../../../../components/DateField'
import { LIST_KIND_LABELS } from '../../../../components/missions/labels'
import { WorkOrderSelect } from '../../../../components/missions/NewMissionForm'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { trpc, trpcClient } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/warehouse/lists/')({
  component: ListsPage,
})

const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** SPEC 2 warehouse "lists": movement lists for printing and carrying out (picking list per work order or per day). */
function ListsPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const canEdit = useCanEditWarehouse()
  const [page, setPage] = useState(1)
  const lists = useQuery({ ...trpc.missions.lists.queryOptions({ page, page_size: 50 }), placeholderData: keepPreviousData, staleTime: 0 })
  const [kind, setKind] = useState<Exclude<MovementListKind, 'mission'>>('work_order')
  const [workOrder, setWorkOrder] = useState<string | null>(null)
  const [day, setDay] = useState<string | null>(today())
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const rows = lists.data?.rows ?? []
  const pages = Math.max(1, Math.ceil((lists.data?.total ?? 0) / 50))

  async function create() {
    setProblem(null)
    if (kind === 'work_order' && !workOrder) return setProblem(t`Scegli l'ordine di lavoro`)
    if (kind === 'day' && !day) return setProblem(t`Scegli il giorno`)
    setBusy(true)
    try {
      const list = await trpcClient.missions.createList.mutate(kind === 'work_order' ? { kind, work_order_key: workOrder! } : { kind, day: day! })
      void navigate({ to: '/app/warehouse/lists/$listKey', params: { listKey: list._key } })
    } catch (e) {
      setProblem(errorMessage(toApiError(e)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Liste di movimenti</Trans>
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          <Trans>I movimenti pianificati raggruppati per la stampa: la lista di prelievo di un ordine di lavoro o di un giorno.</Trans>
        </Text>
      </div>
      {canEdit && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text fw={600}>
              <Trans>Nuova lista</Trans>
            </Text>
            <SegmentedControl
              w="fit-content"
              value={kind}
              onChange={(v) => setKind(v as 'work_order' | 'day')}
              data={[
                { value: 'work_order', label: t`Per ordine di lavoro` },
                { value: 'day', label: t`Per giorno` },
              ]}
            />
            <Group align="flex-end" gap="sm" wrap="wrap">
              {kind === 'work_order' ? (
                <WorkOrderSelect label={t`Ordine di lavoro`} value={workOrder} onChange={(k) => setWorkOrder(k)} testid="list-work-order" />
              ) : (
                <DateField label={t`Giorno`} value={day} onChange={setDay} w={180} />
              )}
              <Button onClick={create} loading={busy} data-testid="list-create">
                <Trans>Crea lista</Trans>
              </Button>
            </Group>
            {problem && (
              <Alert color="red" data-testid="list-error">
                {problem}
              </Alert>
            )}
          </Stack>
        </Paper>
      )}
      {lists.isError && <Text c="red">{errorMessage(toApiError(lists.error))}</Text>}
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover data-testid="lists-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Lista`}</Table.Th>
              <Table.Th>{t`Tipo`}</Table.Th>
              <Table.Th>{t`Titolo`}</Table.Th>
              <Table.Th ta="right">{t`Movimenti`}</Table.Th>
              <Table.Th>{t`Creata`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((l) => (
              <Table.Tr key={l._key} style={{ cursor: 'pointer' }} onClick={() => navigate({ to: '/app/warehouse/lists/$listKey', params: { listKey: l._key } })}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {l.code}
                  </Text>
                </Table.Td>
                <Table.Td>{i18n._(LIST_KIND_LABELS[l.kind])}</Table.Td>
                <Table.Td>{l.title}</Table.Td>
                <Table.Td ta="right">{l.lines_total}</Table.Td>
                <Table.Td>
                  {formatDateTime(l.created_at)}
                  {l.created_by_name ? ` · ${l.created_by_name}` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {lists.data && rows.length === 0 && (
        <Text c="dimmed" ta="center">
          <Trans>Nessuna lista</Trans>
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
