import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Code, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core'
import { useInfiniteQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { hasScope, type Scope } from '../../../../src/auth/scopes'
import { type AuditEntry, CHAIN_CHECKERS } from '../../../../src/domains/audit/schemas'
import { HISTORY_RECORD_READERS } from '../../../../src/domains/history-record/schemas'
import { formatDateTime } from '../../../../src/i18n/format'
import { DateField } from '../../../components/DateField'
import { HistoryRecordButton } from '../../../components/history-record/HistoryRecordButton'
import { LoadError } from '../../../components/QueryState'
import { SIGNATURE_MEANING_LABELS } from '../../../lib/library-labels'
import { trpc } from '../../../lib/trpc'
import { useSession } from '../../../lib/use-auth'
import { EVENT_LABELS as FLOW_EVENT_LABELS } from '../admin/flows/-event-labels'
import { EVENT_LABELS as HISTORY_EVENT_LABELS } from '../production/workorder/$wo_key/-history-event'
import { ChainCheckPanel } from './-chain-check'
import { CameraTextInput } from '../../../components/scan/CameraTextInput'

type Search = { subject_type?: string; code?: string; user?: string; event_type?: string; from?: string; to?: string }
const text = (x: unknown) => (typeof x === 'string' && x.trim() ? x.trim() : undefined)

export const Route = createFileRoute('/app/audit/')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    subject_type: text(s.subject_type),
    code: text(s.code),
    user: text(s.user),
    event_type: text(s.event_type),
    from: text(s.from),
    to: text(s.to),
  }),
  component: AuditTrailPage,
})

const SUBJECT_LABELS: Record<string, MessageDescriptor> = {
  work_order: msg`Ordine di lavoro`,
  job: msg`Lavorazione`,
  serial: msg`Seriale`,
  issue: msg`Segnalazione`,
  product: msg`Prodotto`,
  process: msg`Processo`,
  bom: msg`Distinta base`,
  user: msg`Utente`,
  movement: msg`Movimento`,
  mission: msg`Missione`,
  position: msg`Posizione`,
  message: msg`Messaggio`,
  flow: msg`Flusso dati`,
  settings: msg`Impostazioni`,
}
const EVENT_LABELS: Record<string, MessageDescriptor> = { ...FLOW_EVENT_LABELS, ...HISTORY_EVENT_LABELS }

/** Where an entity opens, for the types that have a screen, and who may open it (the route's own permission). */
type Target = { scope: Scope; open: (key: string, label: string) => ReactNode }
const WORK_ORDER_TARGETS: Target[] = [
  {
    scope: 'production',
    open: (key, label) => (
      <Anchor renderRoot={(p) => <Link {...p} to="/app/production/workorder/$wo_key/history" params={{ wo_key: key }} />} size="sm">
        {label}
      </Anchor>
    ),
  },
  {
    scope: 'traceability',
    open: (key, label) => (
      <Anchor renderRoot={(p) => <Link {...p} to="/app/traceability/workorder/$wo_key" params={{ wo_key: key }} />} size="sm">
        {label}
      </Anchor>
    ),
  },
]
const TARGETS: Record<string, Target[]> = {
  work_order: WORK_ORDER_TARGETS,
  serial: [
    {
      scope: 'traceability',
      open: (key, label) => (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/traceability/serials/$serialKey" params={{ serialKey: key }} />} size="sm">
          {label}
        </Anchor>
      ),
    },
  ],
  product: [
    {
      scope: 'library',
      open: (key, label) => (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/library/product/$product_key" params={{ product_key: key }} />} size="sm">
          {label}
        </Anchor>
      ),
    },
  ],
  issue: [
    {
      scope: 'quality',
      open: (key, label) => (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/quality/issues/$issueKey" params={{ issueKey: key }} />} size="sm">
          {label}
        </Anchor>
      ),
    },
  ],
  position: [
    {
      scope: 'warehouse',
      open: (key, label) => (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/positions/$positionKey" params={{ positionKey: key }} />} size="sm">
          {label}
        </Anchor>
      ),
    },
  ],
  movement: [
    {
      scope: 'warehouse',
      open: (key, label) => (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/movements/$movementKey" params={{ movementKey: key }} />} size="sm">
          {label}
        </Anchor>
      ),
    },
  ],
}

/**
 * The entity of a trail row, a link where this user may open its screen (a job opens its work
 * order), plain text otherwise (an auditor with the `audit` permission alone); a work order or a
 * serial also offers its production record (the PDF), so an auditor without those screens reads
 * how it was built.
 */
function EntityLink({ entry }: { entry: Pick<AuditEntry, 'subject_type' | 'subject_key' | 'code' | 'work_order'> }) {
  const session = useSession()
  const may = (scope: Scope | readonly Scope[]) => !!session && hasScope(session.scope, scope)
  const onJob = entry.subject_type === 'job' && entry.work_order
  const label = entry.code ?? (onJob ? entry.work_order!.code : null) ?? entry.subject_key ?? '—'
  const key = onJob ? entry.work_order!._key : entry.subject_key
  const target = key && entry.subject_type ? (onJob ? WORK_ORDER_TARGETS : (TARGETS[entry.subject_type] ?? [])).find((t) => may(t.scope)) : undefined
  const record = key && (entry.subject_type === 'work_order' || entry.subject_type === 'serial') && may(HISTORY_RECORD_READERS)
  return (
    <Stack gap={2} align="flex-start" data-testid="audit-entity">
      {key && target ? target.open(key, label) : <Text size="sm">{label}</Text>}
      {record && <HistoryRecordButton compact subject={entry.subject_type === 'serial' ? 'serial' : 'work-order'} subjectKey={key} />}
    </Stack>
  )
}

/** Under a signature event: who signed (the name at signing) and the meaning. */
function SignatureOf({ signature }: { signature: NonNullable<AuditEntry['signature']> }) {
  const { i18n } = useLingui()
  const name = signature.full_name
  const meaning = i18n._(SIGNATURE_MEANING_LABELS[signature.meaning])
  return (
    <Text size="sm" fw={500} c="indigo" data-testid="audit-signature">
      {signature.role === 'second_signer' ? (
        <Trans>
          Firmato da {name} · {meaning} · secondo firmatario
        </Trans>
      ) : (
        <Trans>
          Firmato da {name} · {meaning}
        </Trans>
      )}
    </Text>
  )
}

function Changes({ changes }: { changes: Record<string, { from?: unknown; to?: unknown }> | null }) {
  if (!changes) return <Text size="sm" c="dimmed">—</Text>
  const show = (x: unknown) => (x === null || x === undefined || x === '' ? '—' : typeof x === 'object' ? JSON.stringify(x) : String(x))
  return (
    <Stack gap={0}>
      {Object.entries(changes).map(([field, c]) => (
        <Text size="xs" key={field}>
          <b>{field}</b>: {show(c.from)} → {show(c.to)}
        </Text>
      ))}
    </Stack>
  )
}

/** The audit trail: every recorded event, newest first, filtered and exported as the auditor needs. */
function AuditTrailPage() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const session = useSession()
  const [draft, setDraft] = useState<Search>(search)
  const filter = Object.fromEntries(Object.entries(search).filter(([, v]) => v)) as Search
  const query = useInfiniteQuery(
    trpc.audit.trail.infiniteQueryOptions({ ...filter, limit: 50 }, { getNextPageParam: (last) => last.next_before ?? undefined }),
  )
  const rows = query.data?.pages.flatMap((p) => p.rows) ?? []
  const exportHref = (format: 'csv' | 'xlsx') =>
    `/api/audit-trail/export?${new URLSearchParams({ ...filter, format, lang: i18n.locale.startsWith('en') ? 'en' : 'it' })}`
  const set = (key: keyof Search) => (value: string | null | undefined) => setDraft((d) => ({ ...d, [key]: value ?? undefined }))

  return (
    <Stack gap="md" maw={1400}>
      <Paper withBorder p="md" radius="md">
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void navigate({ search: Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, text(v)])) as Search })
          }}
        >
          <Group align="end" wrap="wrap">
            <Select
              label={t`Entità`}
              clearable
              w={190}
              data={Object.entries(SUBJECT_LABELS).map(([value, label]) => ({ value, label: i18n._(label) }))}
              value={draft.subject_type ?? null}
              onChange={set('subject_type')}
            />
            <CameraTextInput label={t`Codice`} w={170} value={draft.code ?? ''} onChange={(e) => set('code')(e.currentTarget.value)} />
            <TextInput label={t`Utente`} w={150} value={draft.user ?? ''} onChange={(e) => set('user')(e.currentTarget.value)} />
            <TextInput label={t`Tipo di evento`} w={200} value={draft.event_type ?? ''} onChange={(e) => set('event_type')(e.currentTarget.value.toUpperCase())} />
            <DateField label={t`Dal`} w={150} value={draft.from?.replaceAll('/', '-') ?? null} onChange={(d) => set('from')(d ?? undefined)} />
            <DateField label={t`Al`} w={150} value={draft.to?.replaceAll('/', '-') ?? null} onChange={(d) => set('to')(d ?? undefined)} />
            <Button type="submit">
              <Trans>Cerca</Trans>
            </Button>
            <Button
              variant="subtle"
              onClick={() => {
                setDraft({})
                void navigate({ search: {} })
              }}
            >
              <Trans>Azzera</Trans>
            </Button>
          </Group>
        </form>
      </Paper>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          <Trans>Dal più recente. Ogni evento è registrato una volta e non cambia più.</Trans>
        </Text>
        <Group gap="xs">
          <Button component="a" href={exportHref('xlsx')} variant="default" size="sm" download>
            <Trans>Esporta XLSX</Trans>
          </Button>
          <Button component="a" href={exportHref('csv')} variant="default" size="sm" download>
            <Trans>Esporta CSV</Trans>
          </Button>
        </Group>
      </Group>
      {query.error ? (
        <LoadError error={query.error} />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{query.isLoading ? <Trans>Caricamento…</Trans> : <Trans>Nessun evento con questi filtri.</Trans>}</Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped data-testid="audit-trail">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`N.`}</Table.Th>
                <Table.Th>{t`Data e ora`}</Table.Th>
                <Table.Th>{t`Utente`}</Table.Th>
                <Table.Th>{t`Evento`}</Table.Th>
                <Table.Th>{t`Entità`}</Table.Th>
                <Table.Th>{t`Motivo`}</Table.Th>
                <Table.Th>{t`Modifiche`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id} data-event={r.id}>
                  <Table.Td>{r.id}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.at)}</Table.Td>
                  <Table.Td>
                    {r.user ? (
                      <>
                        <Text size="sm">{r.user.full_name ?? r.user.username}</Text>
                        <Text size="xs" c="dimmed">
                          {r.user.username}
                        </Text>
                      </>
                    ) : (
                      <Text size="sm" c="dimmed">
                        <Trans>Sistema</Trans>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {EVENT_LABELS[r.event_type] && <Text size="sm">{i18n._(EVENT_LABELS[r.event_type]!)}</Text>}
                    <Code fz="xs">{r.event_type}</Code>
                    {r.signature && <SignatureOf signature={r.signature} />}
                  </Table.Td>
                  <Table.Td>
                    {r.subject_type && (
                      <Text size="xs" c="dimmed">
                        {SUBJECT_LABELS[r.subject_type] ? i18n._(SUBJECT_LABELS[r.subject_type]!) : r.subject_type}
                      </Text>
                    )}
                    <EntityLink entry={r} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.reason ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Changes changes={r.changes} />
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
      {session && hasScope(session.scope, CHAIN_CHECKERS) && <ChainCheckPanel />}
    </Stack>
  )
}
