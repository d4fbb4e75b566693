import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { formatDateTime } from '../../../../../src/i18n/format'
import { LIST_KIND_LABELS } from '../../../../components/missions/labels'
import { PrintButton } from '../../../../components/printing/PrintButton'
import { Loading } from '../../../../components/QueryState'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { formatQuantity, MOVEMENT_STATUS_COLORS, MOVEMENT_STATUS_LABELS, MOVEMENT_TYPE_LABELS, movementName } from '../../../../components/warehouse/labels'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError } from '../../../../lib/notify'
import { trpc, trpcClient } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/warehouse/lists/$listKey')({
  component: ListPage,
})

/** On paper: only the list (no header, menu or tabs), black on white, a box to tick per line. */
const PRINT_CSS = `@media print {
  .mantine-AppShell-header, .mantine-AppShell-navbar, [role="tablist"], [data-noprint] { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; min-height: 0 !important; }
  body { background: white !important; color: black !important; }
  [data-print-table] th, [data-print-table] td { color: black !important; border-bottom: 1px solid #999 !important; }
  [data-print-check] { display: table-cell !important; }
}
[data-print-check] { display: none; }`

/** A movement list, print-friendly: in picking order, each movement as it is now; planned ones can be confirmed here. */
function ListPage() {
  const { t, i18n } = useLingui()
  const { listKey } = Route.useParams()
  const queryClient = useQueryClient()
  const canEdit = useCanEditWarehouse()
  const list = useQuery({ ...trpc.missions.getList.queryOptions({ key: listKey }), staleTime: 0 })
  const [busy, setBusy] = useState<string | null>(null)
  if (list.isLoading) return <Loading />
  if (!list.data) {
    return (
      <Stack>
        <BackLink />
        <Alert color="red">{list.error ? errorMessage(toApiError(list.error)) : <Trans>Lista non trovata</Trans>}</Alert>
      </Stack>
    )
  }
  const l = list.data
  async function confirm(key: string) {
    setBusy(key)
    try {
      await trpcClient.missions.confirmMovement.mutate({ key })
      await queryClient.invalidateQueries({ queryKey: trpc.missions.getList.queryKey({ key: listKey }) })
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(null)
    }
  }
  const done = l.movements.filter((m) => m.status !== 'planned').length
  return (
    <Stack gap="md">
      <style>{PRINT_CSS}</style>
      <div data-noprint>
        <BackLink />
      </div>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} data-testid="list-code">
            {l.code} · {l.title}
          </Title>
          <Text size="sm" c="dimmed">
            {i18n._(LIST_KIND_LABELS[l.kind])}
            {l.work_order_code ? ` · ${l.work_order_code}` : ''} · {formatDateTime(l.created_at)}
            {l.created_by_name ? ` · ${l.created_by_name}` : ''}
          </Text>
          <Text size="sm" data-testid="list-progress">
            <Trans>
              Eseguiti {done} di {l.movements.length}
            </Trans>
          </Text>
        </div>
        <Group gap="xs" data-noprint>
          <Button onClick={() => window.print()} data-testid="list-print">
            <Trans>Stampa</Trans>
          </Button>
          <PrintButton
            label={<Trans>Stampante o PDF…</Trans>}
            testId="list-print-server"
            document={(printerKey) => trpcClient.missions.printList.mutate({ key: l._key, printer_key: printerKey, lang: i18n.locale === 'en' ? 'en' : 'it' })}
          />
        </Group>
      </Group>
      <Table data-print-table striped data-testid="list-movements">
        <Table.Thead>
          <Table.Tr>
            <Table.Th data-print-check>✓</Table.Th>
            <Table.Th>{t`Da`}</Table.Th>
            <Table.Th>{t`Prodotto`}</Table.Th>
            <Table.Th>{t`Seriale`}</Table.Th>
            <Table.Th ta="right">{t`Quantità`}</Table.Th>
            <Table.Th>{t`A`}</Table.Th>
            <Table.Th>{t`Movimento`}</Table.Th>
            <Table.Th>{t`Stato`}</Table.Th>
            <Table.Th data-noprint />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {l.movements.map((m) => (
            <Table.Tr key={m._key}>
              <Table.Td data-print-check>☐</Table.Td>
              <Table.Td>
                <Text fw={700} size="sm">
                  {m.from_position_code ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={600} span>
                  {m.product_code}
                </Text>{' '}
                <Text size="sm" c="dimmed" span>
                  {m.product_description}
                </Text>
              </Table.Td>
              <Table.Td>{m.serial ?? ''}</Table.Td>
              <Table.Td ta="right">
                <Text fw={700} size="sm">
                  {formatQuantity(m.confirmed_quantity ?? m.planned_quantity)}
                </Text>
              </Table.Td>
              <Table.Td>{m.to_position_code ?? '—'}</Table.Td>
              <Table.Td>
                {movementName(m.number)} · {i18n._(MOVEMENT_TYPE_LABELS[m.type])}
              </Table.Td>
              <Table.Td>
                <Badge color={MOVEMENT_STATUS_COLORS[m.status]} variant="light">
                  {i18n._(MOVEMENT_STATUS_LABELS[m.status])}
                </Badge>
              </Table.Td>
              <Table.Td data-noprint>
                {canEdit && m.status === 'planned' && (
                  <Button size="xs" variant="light" loading={busy === m._key} onClick={() => confirm(m._key)}>
                    <Trans>Conferma</Trans>
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  )
}

function BackLink() {
  return (
    <Anchor component={Link} to="/app/warehouse/lists" size="sm" display="inline-block">
      ← <Trans>Liste di movimenti</Trans>
    </Anchor>
  )
}
