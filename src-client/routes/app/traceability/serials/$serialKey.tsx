import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { lazy, type ReactNode, Suspense, useState } from 'react'
import { hasScope } from '../../../../../src/auth/scopes'
import type { SerialLinkRow } from '../../../../../src/domains/serials/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { HistoryRecordButton } from '../../../../components/history-record/HistoryRecordButton'
import { LoadError, Loading } from '../../../../components/QueryState'
import { lastSerialsSearch } from '../../../../components/serials/overview-search'
import { GenealogyTable } from '../../../../components/serials/GenealogyTable'
import { EditSerialCodeDialog, EditSerialDataDialog, UnlinkSerialDialog, useCanCorrectSerials } from '../../../../components/serials/SerialCorrections'
import { serialValueText } from '../../../../components/serials/serial-data'
import { SerialStateBadge } from '../../../../components/serials/SerialStateBadge'
import { trpc } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'
import { SignatureLines } from '../../../../components/signatures/SignatureLines'

// The graph library and its layout load only when the graph is shown (their own chunk).
const GenealogyGraph = lazy(() => import('../../../../components/serials/GenealogyGraph'))

export const Route = createFileRoute('/app/traceability/serials/$serialKey')({
  component: SerialDetailPage,
})

const EVENT_LABELS = {
  SERIAL_CREATED: msg`Creato`,
  SERIAL_UPDATED: msg`Modificato`,
  SERIAL_FINALIZED: msg`Reso definitivo`,
  SERIAL_LINKED: msg`Collegato`,
} as const

const serialLink = (key: string, code: string) => (
  <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/app/traceability/serials/$serialKey" params={{ serialKey: key }} />}>
    {code}
  </Anchor>
)

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children || '-'}</Text>
    </div>
  )
}

/** SPEC 2 serial detail: its data, where it was made, its components, what it is inside, its history and genealogy. */
function SerialDetailPage() {
  const { t, i18n } = useLingui()
  const { serialKey } = Route.useParams()
  const serial = useQuery(trpc.serials.get.queryOptions({ key: serialKey }))
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  // Data declared in a batch is keyed by serial field key (the form field's key): shown by its name.
  const serialFields = useQuery({ ...trpc.serialFields.list.queryOptions(), staleTime: 60_000 })
  const canCorrect = useCanCorrectSerials()
  // The work order opens in production (its Tracciabilità tab) for those who may open that area.
  const canSeeWorkOrders = hasScope(useSession()?.scope ?? '', 'production')
  const [editing, setEditing] = useState(false)
  const [editingData, setEditingData] = useState(false)
  const [unlinking, setUnlinking] = useState<SerialLinkRow | null>(null)
  const back = (
    <Anchor renderRoot={(p) => <Link {...p} to="/app/traceability" search={lastSerialsSearch()} />} size="sm" w="fit-content">
      ← <Trans>Seriali</Trans>
    </Anchor>
  )
  if (serial.isPending) return <Loading />
  if (serial.isError)
    return (
      <Stack>
        {back}
        <LoadError error={serial.error} />
      </Stack>
    )
  const s = serial.data
  const fieldNames = new Map((serialFields.data ?? []).map((f) => [f._key, f.name]))
  const data = Object.entries(s.data).map(([k, v]) => [fieldNames.get(k) ?? k, v] as const)
  const canEditCode = canCorrect && settings.data?.serial_code_edit === true
  const canUnlink = canCorrect && settings.data?.serial_delete === true
  const linkRows = (rows: SerialLinkRow[], testid: string) => (
    <Table striped data-testid={testid}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t`Codice`}</Table.Th>
          <Table.Th>{t`Prodotto`}</Table.Th>
          <Table.Th>{t`Collegato il`}</Table.Th>
          <Table.Th>{t`Stato`}</Table.Th>
          {canUnlink && <Table.Th />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.link_key}>
            <Table.Td>{serialLink(r.serial_key, r.code)}</Table.Td>
            <Table.Td>{`${r.product_code} ${r.product_description}`}</Table.Td>
            <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
            <Table.Td>
              <SerialStateBadge state={r.state} />
            </Table.Td>
            {canUnlink && (
              <Table.Td ta="right">
                <Button size="xs" variant="subtle" color="red" onClick={() => setUnlinking(r)}>
                  <Trans>Rimuovi</Trans>
                </Button>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )

  return (
    <Stack gap="md">
      {back}
      <Group gap="sm" align="center">
        <Title order={2} data-testid="serial-code">
          {s.code}
        </Title>
        <SerialStateBadge state={s.state} />
        {canEditCode && (
          <Button size="xs" variant="default" onClick={() => setEditing(true)}>
            <Trans>Modifica codice</Trans>
          </Button>
        )}
        {s.work_order_key && <HistoryRecordButton subject="serial" subjectKey={s._key} />}
      </Group>
      {editing && <EditSerialCodeDialog opened onClose={() => setEditing(false)} serialKey={s._key} code={s.code} />}
      {editingData && <EditSerialDataDialog opened onClose={() => setEditingData(false)} serialKey={s._key} code={s.code} data={s.data} batchKey={s.batch_key} />}
      {unlinking && (
        <UnlinkSerialDialog opened onClose={() => setUnlinking(null)} linkKey={unlinking.link_key} childCode={unlinking.code} parentCode={s.code} />
      )}
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Field label={t`Prodotto`}>{`${s.product_code} ${s.product_description}`}</Field>
          <Field label={t`Ordine di lavoro`}>
            {s.work_order_key && s.work_order_code ? (
              <Anchor
                size="sm"
                data-testid="serial-work-order"
                renderRoot={(p) =>
                  canSeeWorkOrders ? (
                    <Link {...p} to="/app/production/workorder/$wo_key/traceability" params={{ wo_key: s.work_order_key! }} />
                  ) : (
                    <Link {...p} to="/app/traceability/workorder/$wo_key" params={{ wo_key: s.work_order_key! }} />
                  )
                }
              >
                {s.work_order_code}
              </Anchor>
            ) : (
              s.work_order_code
            )}
          </Field>
          <Field label={t`Revisione`}>{s.revision_number === null ? '' : <span data-testid="serial-revision">{t`Rev ${s.revision_number}`}</span>}</Field>
          <Field label={t`Fase`}>{s.phase_name}</Field>
          <Field label={t`Lotto`}>{s.batch_number === null ? '' : String(s.batch_number)}</Field>
          <Field label={t`Operatore`}>{s.operator_name}</Field>
          <Field label={t`Creato il`}>{formatDateTime(s.created_at)}</Field>
          <Field label={t`Contenuto in`}>{s.contained_in ? serialLink(s.contained_in.serial_key, s.contained_in.code) : ''}</Field>
        </SimpleGrid>
      </Card>
      <Group gap="sm" align="center">
        <Title order={4}>
          <Trans>Dati</Trans>
        </Title>
        {canCorrect && (
          <Button size="xs" variant="default" onClick={() => setEditingData(true)}>
            <Trans>Correggi dati</Trans>
          </Button>
        )}
      </Group>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Nessun dato</Trans>
        </Text>
      ) : (
        <Table withTableBorder maw={640} data-testid="serial-data">
          <Table.Tbody>
            {data.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th w="40%">{k}</Table.Th>
                <Table.Td>{serialValueText(v, i18n.locale)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Tabs defaultValue="components" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="components">
            <Trans>Componenti ({s.components.length})</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="graph">
            <Trans>Grafo genealogia</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="backward">
            <Trans>Genealogia: componenti</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="forward">
            <Trans>Genealogia: utilizzi</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="history">
            <Trans>Storico</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="components" pt="sm">
          {s.components.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>Nessun componente</Trans>
            </Text>
          ) : (
            linkRows(s.components, 'serial-components')
          )}
        </Tabs.Panel>
        <Tabs.Panel value="graph" pt="sm">
          <Suspense fallback={<Loading />}>
            <GenealogyGraph serialKey={s._key} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="backward" pt="sm">
          <Stack gap="sm">
            <GenealogyTable serialKey={s._key} code={s.code} direction="backward" />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="forward" pt="sm">
          <Stack gap="sm">
            <GenealogyTable serialKey={s._key} code={s.code} direction="forward" />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          <Table striped data-testid="serial-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Quando`}</Table.Th>
                <Table.Th>{t`Evento`}</Table.Th>
                <Table.Th>{t`Utente`}</Table.Th>
                <Table.Th>{t`Dettagli`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {/* A signature shows under the correction it signed, not as a row of its own. */}
              {s.history.filter((e) => e.event_type !== 'RECORD_SIGNED').map((e, i) => (
                <Table.Tr key={`${e.created_at}-${i}`}>
                  <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
                  <Table.Td>{e.event_type in EVENT_LABELS ? i18n._(EVENT_LABELS[e.event_type as keyof typeof EVENT_LABELS]) : e.event_type}</Table.Td>
                  <Table.Td>{e.user_name ?? ''}</Table.Td>
                  <Table.Td>
                    {eventDetails(e.data, i18n, fieldNames)}
                    <SignatureLines signatures={s.signatures.filter((x) => x.subject_key.endsWith(`:${e._key}`))} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}

type I18n = ReturnType<typeof useLingui>['i18n']
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** What an event says in a line: the link made or removed, the reason and the values changed (serial fields by name). */
function eventDetails(data: Record<string, unknown>, i18n: I18n, fieldNames: ReadonlyMap<string, string>): string {
  const parts: string[] = []
  const str = (v: unknown) => serialValueText(v, i18n.locale)
  if (typeof data.into_code === 'string') {
    const into = data.into_code
    parts.push(i18n._(msg`il collegamento in ${into}`))
  } else if (data.own_batch === true && typeof data.batch_number === 'number') {
    const batch = data.batch_number
    parts.push(i18n._(msg`il seriale, al completamento del lotto ${batch}`))
  }
  if (typeof data.parent_code === 'string' && typeof data.child_code === 'string') {
    const [child, parent] = [data.child_code, data.parent_code]
    parts.push(i18n._(msg`${child} in ${parent}`))
  }
  const unlinked = data.unlinked as { parent_code?: string; child_code?: string } | undefined
  if (unlinked) {
    const [child, parent] = [str(unlinked.child_code), str(unlinked.parent_code)]
    parts.push(i18n._(msg`${child} tolto da ${parent}`))
  }
  const changes = data.changes as Record<string, { from: unknown; to: unknown }> | undefined
  for (const [k, c] of Object.entries(changes ?? {})) {
    if (k === 'data' && isRecord(c.from) && isRecord(c.to)) {
      // Data: each field that changed, was added (— before) or removed (— after).
      const [from, to] = [c.from, c.to]
      for (const f of new Set([...Object.keys(from), ...Object.keys(to)])) {
        if (JSON.stringify(from[f]) !== JSON.stringify(to[f])) parts.push(`${fieldNames.get(f) ?? f}: ${f in from ? str(from[f]) : '—'} → ${f in to ? str(to[f]) : '—'}`)
      }
    } else parts.push(`${k}: ${str(c.from)} → ${str(c.to)}`)
  }
  if (typeof data.reason === 'string') {
    const reason = data.reason
    parts.push(i18n._(msg`Motivo: ${reason}`))
  }
  return parts.join('; ')
}
