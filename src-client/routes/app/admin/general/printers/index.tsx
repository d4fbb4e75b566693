import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { PrinterRow, PrintRow } from '../../../../../../src/domains/printing/schemas'
import { Loading } from '../../../../../components/QueryState'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { Section, SettingsTable } from '../-settings-ui'
import { formatDateTime } from '../../../../../../src/i18n/format'

export const Route = createFileRoute('/app/admin/general/printers/')({
  component: PrintersTab,
})

const refresh = () =>
  Promise.all([queryClient.invalidateQueries({ queryKey: trpc.printers.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.prints.log.queryKey() })])

function PrintersTab() {
  const { t } = useLingui()
  const { data } = useQuery(trpc.printers.list.queryOptions({}))
  const trash = useQuery(trpc.printers.list.queryOptions({ trash: true }))
  const [testing, setTesting] = useState<string | null>(null)
  const test = async (p: PrinterRow) => {
    setTesting(p._key)
    try {
      await trpcClient.printers.test.mutate({ key: p._key })
      notifySuccess(t`Stampa di prova inviata a ${p.name}`)
    } catch (e) {
      notifyError(e)
    } finally {
      setTesting(null)
      void refresh()
    }
  }
  const setTrash = async (p: PrinterRow, value: boolean) => {
    try {
      await trpcClient.printers.patch.mutate({ key: p._key, patch: { trash: value } })
      await refresh()
    } catch (e) {
      notifyError(e)
    }
  }
  return (
    <Stack maw={1100} gap="lg">
      <Section
        title={<Trans>Stampanti</Trans>}
        description={
          <Trans>
            Il server stampa direttamente: IPP (porta 631, percorso /ipp/print) per le stampanti d'ufficio, TCP diretto (porta 9100) per le stampanti di etichette che
            accettano PDF. Ognuno sceglie la propria stampante predefinita quando stampa.
          </Trans>
        }
      >
        <AddPrinter />
        {!data ? (
          <Loading />
        ) : (
          <SettingsTable
            testid="printers-table"
            columns={[{ label: <Trans>Nome</Trans> }, { label: <Trans>Indirizzo</Trans> }, { label: <Trans>Protocollo</Trans> }, {}]}
            empty={data.length === 0 && <Trans>Nessuna stampante</Trans>}
          >
            {[...data, ...(trash.data ?? [])].map((p) => (
              <Table.Tr key={p._key} data-testid={`printer-${p.name}`}>
                <Table.Td>
                  {p.name}{' '}
                  {p.trash && (
                    <Badge color="gray" variant="light">
                      <Trans>nel cestino</Trans>
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {p.host}:{p.port}
                  {p.protocol === 'ipp' ? p.path : ''}
                </Table.Td>
                <Table.Td>{p.protocol === 'ipp' ? 'IPP' : <Trans>TCP diretto</Trans>}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {!p.trash && (
                      <Button size="compact-sm" variant="default" loading={testing === p._key} onClick={() => void test(p)}>
                        <Trans>Stampa di prova</Trans>
                      </Button>
                    )}
                    <Button size="compact-sm" variant="subtle" color={p.trash ? 'blue' : 'red'} onClick={() => void setTrash(p, !p.trash)}>
                      {p.trash ? <Trans>Ripristina</Trans> : <Trans>Cestina</Trans>}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </SettingsTable>
        )}
      </Section>
      <Section title={<Trans>Registro delle stampe</Trans>} description={<Trans>Le ultime 100 stampe: cosa, dove, chi e se la stampante l'ha accettata.</Trans>}>
        <PrintLog />
      </Section>
    </Stack>
  )
}

function AddPrinter() {
  const { t } = useLingui()
  const [name, setName] = useState('')
  const [host, setHost] = useState('')
  const [port, setPort] = useState('')
  const [protocol, setProtocol] = useState<'ipp' | 'raw'>('ipp')
  const [busy, setBusy] = useState(false)
  const portNumber = port.trim() === '' ? undefined : Number(port.trim())
  const portBad = portNumber !== undefined && !(Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65535)
  const submit = async () => {
    setBusy(true)
    try {
      await trpcClient.printers.create.mutate({ name: name.trim(), host: host.trim(), port: portNumber, protocol })
      notifySuccess(t`Stampante aggiunta`)
      setName('')
      setHost('')
      setPort('')
      await refresh()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Group align="flex-end" wrap="wrap">
      <TextInput label={<Trans>Nome</Trans>} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} w={200} data-testid="printer-name" />
      <TextInput label={<Trans>Host o indirizzo IP</Trans>} value={host} onChange={(e) => setHost(e.currentTarget.value)} maxLength={253} w={200} data-testid="printer-host" />
      <Select
        label={<Trans>Protocollo</Trans>}
        data={[
          { value: 'ipp', label: 'IPP' },
          { value: 'raw', label: t`TCP diretto (9100)` },
        ]}
        value={protocol}
        onChange={(v) => setProtocol((v ?? 'ipp') as 'ipp' | 'raw')}
        allowDeselect={false}
        w={170}
        data-testid="printer-protocol"
      />
      <TextInput
        label={<Trans>Porta</Trans>}
        placeholder={protocol === 'ipp' ? '631' : '9100'}
        description={t`Vuota: ${protocol === 'ipp' ? '631' : '9100'}`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={port}
        onChange={(e) => setPort(e.currentTarget.value)}
        error={portBad ? t`Da 1 a 65535` : undefined}
        w={100}
        data-testid="printer-port"
      />
      <Button onClick={() => void submit()} disabled={!name.trim() || !host.trim() || portBad} loading={busy} data-testid="printer-add">
        <Trans>Aggiungi</Trans>
      </Button>
    </Group>
  )
}

function PrintLog() {
  const { t } = useLingui()
  const { data } = useQuery(trpc.prints.log.queryOptions({ limit: 100 }))
  if (!data) return <Loading />
  const status: Record<PrintRow['status'], { label: string; color: string }> = {
    made: { label: t`solo PDF`, color: 'gray' },
    accepted: { label: t`accettata`, color: 'green' },
    refused: { label: t`rifiutata`, color: 'red' },
    unreachable: { label: t`non raggiungibile`, color: 'red' },
  }
  return (
    <Table striped data-testid="print-log">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <Trans>Quando</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Cosa</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Dove</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Chi</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Esito</Trans>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.map((r) => (
          <Table.Tr key={r._key}>
            <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
            <Table.Td>
              <a href={r.pdf_url} target="_blank" rel="noreferrer">
                {r.template_name ?? t`Stampa di prova`}
              </a>{' '}
              ({r.documents})
            </Table.Td>
            <Table.Td>{r.printer_name ?? '-'}</Table.Td>
            <Table.Td>{r.user_name || r.username || '-'}</Table.Td>
            <Table.Td>
              <Badge color={status[r.status].color} variant="light">
                {status[r.status].label}
              </Badge>{' '}
              <Text span size="xs" c="dimmed">
                {r.message}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
        {data.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={5}>
              <Text c="dimmed" ta="center">
                <Trans>Nessuna stampa</Trans>
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  )
}
