import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Code, Group, Paper, SegmentedControl, Stack, Table, Text, Title, Tooltip } from '@mantine/core'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DeliveryRow, DeliveryStatus, FlowEventType } from '../../../../../src/domains/flows/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { LoadError } from '../../../../components/QueryState'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { EVENT_LABELS } from './-event-labels'

const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'yellow', delivered: 'green', failed: 'red' }

/** The delivery log of a flow (newest first, refreshed every few seconds) with "Reinvia". */
export function Deliveries({ flowKey }: { flowKey: string }) {
  const { t, i18n } = useLingui()
  const [status, setStatus] = useState<DeliveryStatus | 'all'>('all')
  const [busy, setBusy] = useState<string | null>(null)
  const input = { flow_key: flowKey, limit: 50, ...(status === 'all' ? {} : { status }) }
  const query = useInfiniteQuery({
    ...trpc.flows.deliveries.infiniteQueryOptions(input, { getNextPageParam: (last) => last.next_before ?? undefined }),
    refetchInterval: 5_000,
  })
  const rows: DeliveryRow[] = query.data?.pages.flatMap((p) => p.rows) ?? []
  const statusLabel: Record<DeliveryStatus, string> = { pending: t`In attesa`, delivered: t`Consegnato`, failed: t`Fallito` }

  async function redeliver(row: DeliveryRow) {
    setBusy(row._key)
    try {
      await trpcClient.flows.redeliver.mutate({ key: row._key })
      await queryClient.invalidateQueries({ queryKey: trpc.flows.deliveries.pathKey() })
      await queryClient.invalidateQueries({ queryKey: trpc.flows.list.pathKey() })
      notifySuccess(t`Invio rimesso in coda`)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" mt="lg" maw={1200}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3}>
            <Trans>Registro degli invii</Trans>
          </Title>
          <SegmentedControl
            value={status}
            onChange={(v) => setStatus(v as DeliveryStatus | 'all')}
            data={[
              { value: 'all', label: t`Tutti` },
              { value: 'pending', label: statusLabel.pending },
              { value: 'delivered', label: statusLabel.delivered },
              { value: 'failed', label: statusLabel.failed },
            ]}
          />
        </Group>
        {query.error ? (
          <LoadError error={query.error} />
        ) : rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {query.isLoading ? <Trans>Caricamento…</Trans> : <Trans>Nessun invio.</Trans>}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped data-testid="deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Evento`}</Table.Th>
                  <Table.Th>{t`Registrato`}</Table.Th>
                  <Table.Th>{t`Stato`}</Table.Th>
                  <Table.Th>{t`Tentativi`}</Table.Th>
                  <Table.Th>{t`Risposta`}</Table.Th>
                  <Table.Th>{t`Ultimo errore`}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r._key} data-delivery={r._key}>
                    <Table.Td>
                      <Text size="sm">{EVENT_LABELS[r.event_type as FlowEventType] ? i18n._(EVENT_LABELS[r.event_type as FlowEventType]) : r.event_type}</Text>
                      <Tooltip label={t`Identificativo stabile dell'invio (webhook-id)`}>
                        <Code fz="xs">{r._key}</Code>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(r.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[r.status]}>{statusLabel[r.status]}</Badge>
                    </Table.Td>
                    <Table.Td>{r.attempts}</Table.Td>
                    <Table.Td>{r.last_status_code ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c={r.last_error ? 'red' : 'dimmed'} style={{ overflowWrap: 'anywhere' }} maw={320}>
                        {r.last_error ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {r.status !== 'pending' && (
                        <Button size="compact-sm" variant="default" loading={busy === r._key} onClick={() => redeliver(r)}>
                          <Trans>Reinvia</Trans>
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {query.hasNextPage && (
          <Button variant="subtle" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
            <Trans>Carica altri</Trans>
          </Button>
        )}
      </Stack>
    </Paper>
  )
}
