import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { MovementListKind, MovementListRow } from '../../../../../src/domains/missions/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { DateField } from '../../../../components/DateField'
import { LIST_KIND_LABELS } from '../../../../components/missions/labels'
import { WorkOrderSelect } from '../../../../components/missions/NewMissionForm'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { useScanGroup } from '../../../../components/warehouse/scan-group'
import { ListDescription, ListHeader, PagedListPage, type RowColumn, RowTable } from '../../../../components/warehouse/ListFrame'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { trpc, trpcClient } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/warehouse/lists/')({
  component: ListsPage,
})

const PAGE_SIZE = 50

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
  const lists = useQuery({ ...trpc.missions.lists.queryOptions({ page, page_size: PAGE_SIZE }), placeholderData: keepPreviousData, staleTime: 0 })
  const [kind, setKind] = useState<Exclude<MovementListKind, 'mission'>>('work_order')
  const [workOrder, setWorkOrder] = useState<string | null>(null)
  const [day, setDay] = useState<string | null>(today())
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const scans = useScanGroup()

  async function create() {
    setProblem(null)
    // The work order as its field reads it now: a code typed and not picked counts, or is refused with the reason.
    const picked = kind === 'work_order' ? await scans.settle() : {}
    if (!picked) return setProblem(t`Un codice scritto non corrisponde a nulla: correggilo o svuota il campo`)
    const workOrder = picked.workOrder?._key ?? null
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

  const columns: RowColumn<MovementListRow>[] = [
    {
      header: t`Lista`,
      cell: (l) => (
        <Text fw={600} size="sm">
          {l.code}
        </Text>
      ),
    },
    { header: t`Tipo`, cell: (l) => i18n._(LIST_KIND_LABELS[l.kind]) },
    { header: t`Titolo`, cell: (l) => l.title },
    { header: t`Movimenti`, cell: (l) => l.lines_total, align: 'right' },
    { header: t`Creata`, cell: (l) => `${formatDateTime(l.created_at)}${l.created_by_name ? ` · ${l.created_by_name}` : ''}` },
  ]

  return (
    <PagedListPage
      header={
        <ListHeader
          title={<Trans>Liste di movimenti</Trans>}
          subtitle={
            <ListDescription>
              <Trans>I movimenti pianificati raggruppati per la stampa: la lista di prelievo di un ordine di lavoro o di un giorno.</Trans>
            </ListDescription>
          }
        />
      }
      query={lists}
      pageSize={PAGE_SIZE}
      page={page}
      onPage={setPage}
      table={(rows) => (
        <RowTable
          testid="lists-table"
          minWidth={720}
          columns={columns}
          rows={rows}
          onRow={(l) => navigate({ to: '/app/warehouse/lists/$listKey', params: { listKey: l._key } })}
        />
      )}
      empty={<Trans>Nessuna lista</Trans>}
    >
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
                <WorkOrderSelect label={t`Ordine di lavoro`} value={workOrder} onChange={(k) => setWorkOrder(k)} group={scans} name="workOrder" testid="list-work-order" />
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
    </PagedListPage>
  )
}
