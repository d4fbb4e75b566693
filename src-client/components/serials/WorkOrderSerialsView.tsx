import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { hasScope } from '../../../src/auth/scopes'
import { formatDateTime } from '../../../src/i18n/format'
import { LoadError, Loading } from '../QueryState'
import { SerialStateBadge } from './SerialStateBadge'
import { trpc } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'

/**
 * SPEC 2, a work order's Tracciabilità (the production tab, and the traceability area's own page): the serials it produced and the component serials
 * it consumed. A code opens the serial's detail for those who may open the traceability area;
 * for the others it is plain text (the area's route would refuse them).
 */
export function WorkOrderSerialsView({ woKey: wo_key }: { woKey: string }) {
  const { t } = useLingui()
  const canOpen = hasScope(useSession()?.scope ?? '', 'traceability')
  const serials = useQuery(trpc.serials.workOrder.queryOptions({ key: wo_key }))
  if (serials.isPending) return <Loading />
  if (serials.isError) return <LoadError error={serials.error} />
  const { produced, produced_total, consumed, consumed_total } = serials.data
  const code = (key: string, text: string) =>
    canOpen ? (
      <Anchor size="sm" fw={600} renderRoot={(p) => <Link {...p} to="/app/traceability/serials/$serialKey" params={{ serialKey: key }} />}>
        {text}
      </Anchor>
    ) : (
      <Text size="sm" fw={600} span>
        {text}
      </Text>
    )
  const counted = (shown: number, total: number) => (shown < total ? t`primi ${shown} di ${total}` : String(total))
  const empty = (text: string) => (
    <Paper withBorder radius="md" p="md">
      <Text c="dimmed" size="sm">
        {text}
      </Text>
    </Paper>
  )

  return (
    <Stack gap="lg">
      {canOpen && produced_total > 0 && (
        <Anchor size="sm" w="fit-content" renderRoot={(p) => <Link {...p} to="/app/traceability" search={{ wo: wo_key }} />} data-testid="wo-serials-overview">
          <Trans>Cerca tra i seriali di questo ordine nella Tracciabilità</Trans> →
        </Anchor>
      )}
      <Stack gap="xs">
        <Title order={4}>
          <Trans>Seriali prodotti</Trans> ({counted(produced.length, produced_total)})
        </Title>
        {produced.length === 0 ? (
          empty(t`Questo ordine di lavoro non ha ancora prodotto seriali.`)
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped data-testid="wo-serials-produced">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Codice`}</Table.Th>
                  <Table.Th>{t`Prodotto`}</Table.Th>
                  <Table.Th>{t`Fase`}</Table.Th>
                  <Table.Th>{t`Lotto`}</Table.Th>
                  <Table.Th>{t`Operatore`}</Table.Th>
                  <Table.Th>{t`Creato il`}</Table.Th>
                  <Table.Th ta="right">{t`Componenti`}</Table.Th>
                  <Table.Th>{t`Stato`}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {produced.map((s) => (
                  <Table.Tr key={s.serial_key}>
                    <Table.Td>{code(s.serial_key, s.code)}</Table.Td>
                    <Table.Td>{`${s.product_code} ${s.product_description}`}</Table.Td>
                    <Table.Td>{s.phase_name ?? ''}</Table.Td>
                    <Table.Td>{s.batch_number ?? ''}</Table.Td>
                    <Table.Td>{s.operator_name ?? ''}</Table.Td>
                    <Table.Td>{formatDateTime(s.created_at)}</Table.Td>
                    <Table.Td ta="right">{s.components}</Table.Td>
                    <Table.Td>
                      <SerialStateBadge state={s.state} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={4}>
          <Trans>Seriali dei componenti consumati</Trans> ({counted(consumed.length, consumed_total)})
        </Title>
        {consumed.length === 0 ? (
          empty(t`Nessun seriale di componente è stato usato da questo ordine di lavoro.`)
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped data-testid="wo-serials-consumed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Codice`}</Table.Th>
                  <Table.Th>{t`Componente`}</Table.Th>
                  <Table.Th>{t`Montato in`}</Table.Th>
                  <Table.Th>{t`Fase`}</Table.Th>
                  <Table.Th>{t`Lotto`}</Table.Th>
                  <Table.Th>{t`Collegato il`}</Table.Th>
                  <Table.Th>{t`Stato`}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {consumed.map((c) => (
                  <Table.Tr key={c.link_key}>
                    <Table.Td>{code(c.serial_key, c.code)}</Table.Td>
                    <Table.Td>{`${c.product_code} ${c.product_description}`}</Table.Td>
                    <Table.Td>{code(c.parent_key, c.parent_code)}</Table.Td>
                    <Table.Td>{c.phase_name ?? ''}</Table.Td>
                    <Table.Td>{c.batch_number ?? ''}</Table.Td>
                    <Table.Td>{formatDateTime(c.created_at)}</Table.Td>
                    <Table.Td>
                      <SerialStateBadge state={c.state} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  )
}
