import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { LoadError, Loading } from '../../../../components/QueryState'
import { trpc } from '../../../../lib/trpc'
import { LibraryHeader } from '../-library-ui'

export const Route = createFileRoute('/app/admin/flows/')({
  component: FlowsList,
})

/** admin/flows: the data flows (outbound webhooks) with how their deliveries are doing. */
function FlowsList() {
  const { t } = useLingui()
  const { data, error } = useQuery({ ...trpc.flows.list.queryOptions(), refetchInterval: 10_000 })
  return (
    <Stack gap="sm">
      <LibraryHeader
        title={<Trans>Flussi dati</Trans>}
        description={
          <Trans>
            Inviano gli eventi scelti a un altro sistema (ERP, BI, tabelloni andon) come webhook firmati. Un invio non riuscito viene ritentato per 24 ore, in
            ordine.
          </Trans>
        }
        action={
          <Button component={Link} to="/app/admin/flows/new">
            <Trans>Nuovo flusso</Trans>
          </Button>
        }
      />
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Text c="dimmed">
          <Trans>Nessun flusso: creane uno.</Trans>
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Nome`}</Table.Th>
                <Table.Th>{t`Indirizzo`}</Table.Th>
                <Table.Th>{t`Eventi`}</Table.Th>
                <Table.Th>{t`Stato`}</Table.Th>
                <Table.Th>{t`In attesa`}</Table.Th>
                <Table.Th>{t`Consegnati`}</Table.Th>
                <Table.Th>{t`Falliti`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((f) => (
                <Table.Tr key={f._key}>
                  <Table.Td>
                    <Anchor renderRoot={(p) => <Link {...p} to="/app/admin/flows/$flowKey" params={{ flowKey: f._key }} />} fw={500}>
                      {f.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {f.url}
                    </Text>
                  </Table.Td>
                  <Table.Td>{f.event_types.length}</Table.Td>
                  <Table.Td>{f.active ? <Badge color="green">{t`Attivo`}</Badge> : <Badge color="gray">{t`In pausa`}</Badge>}</Table.Td>
                  <Table.Td>{f.pending}</Table.Td>
                  <Table.Td>{f.delivered}</Table.Td>
                  <Table.Td>{f.failed > 0 ? <Text c="red" fw={600} span>{f.failed}</Text> : 0}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        <Text size="sm" c="dimmed">
          <Trans>Per gli script: le stesse operazioni sono nell'API REST (etichetta flows in /api/docs).</Trans>
        </Text>
      </Group>
    </Stack>
  )
}
