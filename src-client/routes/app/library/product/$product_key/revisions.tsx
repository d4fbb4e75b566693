import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { RevisionList } from '../../../../../../src/domains/revisions/schemas'
import { formatDateTime } from '../../../../../../src/i18n/format'
import { LoadError, Loading } from '../../../../../components/QueryState'
import { RevisionDiffView } from '../../../../../components/revisions/RevisionDiffView'
import { rememberProduct } from '../../../../../lib/product-memory'
import { trpc } from '../../../../../lib/trpc'
import { SignatureLines } from '../../../../../components/signatures/SignatureLines'

export const Route = createFileRoute('/app/library/product/$product_key/revisions')({
  component: ProductRevisions,
})

type Side = number | 'draft'

/** By default the draft against the latest revision when they differ, else the latest against the one before. */
function defaultSides(list: RevisionList): [Side, Side] | null {
  const [latest, previous] = list.revisions
  if (latest && list.draft_changed) return [latest.number, 'draft']
  if (latest && previous) return [previous.number, latest.number]
  return null
}

function ProductRevisions() {
  const { product_key } = Route.useParams()
  const { data, error } = useQuery(trpc.revisions.list.queryOptions({ key: product_key }))
  useEffect(() => rememberProduct(product_key, { last_page: 'revisions' }), [product_key])
  if (error) return <LoadError error={error} />
  if (!data) return <Loading />
  return (
    <Stack gap="md">
      <RevisionTable list={data} />
      <Compare key={`${data.revisions[0]?.number}-${data.draft_changed}`} list={data} />
    </Stack>
  )
}

function RevisionTable({ list }: { list: RevisionList }) {
  if (!list.revisions.length)
    return (
      <Text c="dimmed">
        <Trans>Nessuna revisione rilasciata.</Trans>
      </Text>
    )
  return (
    <Table withTableBorder striped data-testid="revision-list">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <Trans>Revisione</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Rilasciata il</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Rilasciata da</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Motivo</Trans>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.revisions.map((r) => (
          <Table.Tr key={r._key}>
            <Table.Td fw={600}>
              <Trans>Rev {r.number}</Trans>
            </Table.Td>
            <Table.Td>{formatDateTime(r.released_at)}</Table.Td>
            <Table.Td>{r.released_by?.name ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap' }}>
              {r.reason}
              <SignatureLines signatures={r.signatures} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** Any two revisions, or the draft against one, side by side. */
function Compare({ list }: { list: RevisionList }) {
  const { t } = useLingui()
  const initial = defaultSides(list)
  const [from, setFrom] = useState<Side | null>(initial?.[0] ?? null)
  const [to, setTo] = useState<Side | null>(initial?.[1] ?? null)
  const ready = from !== null && to !== null && from !== to
  const diff = useQuery({ ...trpc.revisions.diff.queryOptions({ key: list.product_key, from: from ?? 'draft', to: to ?? 'draft' }), enabled: ready })
  if (!list.revisions.length) return null
  const options = [{ value: 'draft', label: t`Bozza` }, ...list.revisions.map((r) => ({ value: String(r.number), label: t`Rev ${r.number}` }))]
  const side = (value: string | null): Side | null => (value === null ? null : value === 'draft' ? 'draft' : Number(value))
  return (
    <Paper withBorder p="md" radius="md" data-testid="revision-compare">
      <Title order={4} mb="sm">
        <Trans>Confronta</Trans>
      </Title>
      <Group mb="md" align="flex-end">
        <Select label={t`Da`} data={options} value={from === null ? null : String(from)} onChange={(v) => setFrom(side(v))} w={180} data-testid="compare-from" />
        <Select label={t`A`} data={options} value={to === null ? null : String(to)} onChange={(v) => setTo(side(v))} w={180} data-testid="compare-to" />
      </Group>
      {!ready ? (
        <Text c="dimmed" size="sm">
          <Trans>Scegli due versioni diverse da confrontare.</Trans>
        </Text>
      ) : diff.error ? (
        <LoadError error={diff.error} />
      ) : !diff.data ? (
        <Loading />
      ) : (
        <RevisionDiffView diff={diff.data} />
      )}
    </Paper>
  )
}
