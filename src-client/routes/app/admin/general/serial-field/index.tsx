import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Anchor, Badge, Button, Group, Stack, Table } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { SerialFieldRow } from '../../../../../../src/domains/serial-fields/schemas'
import { Loading } from '../../../../../components/QueryState'
import { FIELD_TYPE_LABELS } from '../../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { Section, SettingsTable } from '../-settings-ui'
import { refreshSerialFields } from './-serial-fields'

export const Route = createFileRoute('/app/admin/general/serial-field/')({
  component: SerialFieldsTab,
})

function SerialFieldsTab() {
  const { t, i18n } = useLingui()
  const { data } = useQuery(trpc.serialFields.list.queryOptions())
  const [moving, setMoving] = useState(false)

  /** Moves one field up or down by one place; the server takes the whole new order. */
  async function move(rows: SerialFieldRow[], index: number, by: -1 | 1) {
    const keys = rows.map((r) => r._key)
    const [key] = keys.splice(index, 1)
    keys.splice(index + by, 0, key!)
    setMoving(true)
    try {
      queryClient.setQueryData(trpc.serialFields.list.queryKey(), await trpcClient.serialFields.reorder.mutate({ field_keys: keys }))
      notifySuccess(t`Ordine dei campi salvato`)
    } catch (err) {
      notifyError(err)
      await refreshSerialFields()
    } finally {
      setMoving(false)
    }
  }

  return (
    <Stack maw={900} gap="lg">
      <Section
        title={<Trans>Campi dei seriali</Trans>}
        description={
          <Trans>
            I dati che ogni seriale porta con sé, nell'ordine in cui sono chiesti. Ogni campo viene dalla libreria dei campi personalizzati, che ne
            stabilisce tipo e opzioni.
          </Trans>
        }
      >
        <Group>
          <Button component={Link} to="/app/admin/general/serial-field/new">
            <Trans>Aggiungi campo</Trans>
          </Button>
        </Group>
        {!data ? (
          <Loading />
        ) : (
          <SettingsTable
            testid="serial-fields-table"
            columns={[{ label: '#', w: 50 }, { label: <Trans>Nome</Trans> }, { label: <Trans>Tipo</Trans> }, { label: <Trans>Caratteristiche</Trans> }, { w: 100 }]}
            empty={data.length === 0 && <Trans>Nessun campo: i seriali hanno solo il codice</Trans>}
          >
            {data.map((f, index) => (
              <Table.Tr key={f._key} data-testid={`serial-field-${f.name}`}>
                <Table.Td>{f.position}</Table.Td>
                <Table.Td>
                  <Anchor renderRoot={(props) => <Link {...props} to="/app/admin/general/serial-field/$field_key" params={{ field_key: f._key }} />} fw={500}>
                    {f.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{i18n._(FIELD_TYPE_LABELS[f.type])}</Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    {f.mandatory && (
                      <Badge color="red" variant="light">
                        <Trans>Obbligatorio</Trans>
                      </Badge>
                    )}
                    {!f.field_active && (
                      <Badge color="gray" variant="outline">
                        <Trans>Campo archiviato</Trans>
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <ActionIcon
                      variant="default"
                      disabled={index === 0 || moving}
                      onClick={() => move(data, index, -1)}
                      aria-label={t`Sposta su ${f.name}`}
                    >
                      ↑
                    </ActionIcon>
                    <ActionIcon
                      variant="default"
                      disabled={index === data.length - 1 || moving}
                      onClick={() => move(data, index, 1)}
                      aria-label={t`Sposta giù ${f.name}`}
                    >
                      ↓
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </SettingsTable>
        )}
      </Section>
    </Stack>
  )
}
