import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { parsePrinterUri, printerUri } from '../../../../../../src/domains/printing/printer-uri'
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
            Il server stampa direttamente: IPP o IPP cifrato (ipp://, ipps://, porta 631; anche una coda CUPS, ad esempio ipps://server/printers/Ufficio) per le
            stampanti d'ufficio, TCP diretto (socket://, porta 9100) per le stampanti di etichette che accettano PDF. Ognuno sceglie la propria stampante predefinita
            quando stampa.
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
                <Table.Td>{printerUri(p)}</Table.Td>
                <Table.Td>{p.protocol === 'raw' ? <Trans>TCP diretto</Trans> : p.protocol === 'ipps' ? <Trans>IPP cifrato (TLS)</Trans> : 'IPP'}</Table.Td>
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

/** What the typed URI will save, or why it cannot: said under the field as the person types. */
function useUriHint(uri: string): { hint?: string; error?: string } {
  const { t } = useLingui()
  if (!uri.trim()) return { hint: t`ipp://host/percorso, ipps://server/printers/coda o socket://host:9100` }
  const parsed = parsePrinterUri(uri)
  if (!parsed.ok) {
    const reasons = {
      syntax: t`Scrivi ad esempio ipp://192.168.1.20/ipp/print`,
      scheme: t`Inizia con ipp://, ipps:// o socket://`,
      host: t`Manca l'host o l'indirizzo IP`,
      port: t`Porta da 1 a 65535`,
      path: t`Percorso non valido (socket:// non ne ha)`,
    }
    return { error: reasons[parsed.reason] }
  }
  const a = parsed.address
  const kind = a.protocol === 'raw' ? t`TCP diretto` : a.protocol === 'ipps' ? t`IPP cifrato (TLS)` : 'IPP'
  return { hint: a.protocol === 'raw' ? t`${kind} · ${a.host} · porta ${a.port}` : t`${kind} · ${a.host} · porta ${a.port} · ${a.path}` }
}

function AddPrinter() {
  const { t } = useLingui()
  const [name, setName] = useState('')
  const [uri, setUri] = useState('')
  const [busy, setBusy] = useState(false)
  const { hint, error } = useUriHint(uri)
  const submit = async () => {
    setBusy(true)
    try {
      await trpcClient.printers.create.mutate({ name: name.trim(), uri: uri.trim() })
      notifySuccess(t`Stampante aggiunta`)
      setName('')
      setUri('')
      await refresh()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Group align="flex-start" wrap="wrap">
      <TextInput label={<Trans>Nome</Trans>} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} w={200} data-testid="printer-name" />
      <TextInput
        label={<Trans>Indirizzo (URI)</Trans>}
        placeholder="ipp://192.168.1.20/ipp/print"
        description={hint}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        error={error}
        value={uri}
        onChange={(e) => setUri(e.currentTarget.value)}
        maxLength={500}
        w={420}
        data-testid="printer-uri"
      />
      <Button mt={24} onClick={() => void submit()} disabled={!name.trim() || !uri.trim() || !!error} loading={busy} data-testid="printer-add">
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
