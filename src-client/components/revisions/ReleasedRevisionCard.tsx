import { Trans } from '@lingui/react/macro'
import { Anchor, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { formatDateTime } from '../../../src/i18n/format'
import { trpc } from '../../lib/trpc'
import { Card } from '../products/ProductCards'

/** The product home names the revision work orders are made from: who released it, when and why. */
export function ReleasedRevisionCard({ productKey }: { productKey: string }) {
  const { data } = useQuery(trpc.revisions.list.queryOptions({ key: productKey }))
  if (!data) return null
  const latest = data.revisions[0]
  return (
    <Card
      title={<Trans>Revisione rilasciata</Trans>}
      testId="released-revision"
      action={
        <Anchor renderRoot={(p) => <Link {...p} to="/app/library/product/$product_key/revisions" params={{ product_key: productKey }} />} size="sm">
          <Trans>Revisioni</Trans>
        </Anchor>
      }
    >
      {latest ? (
        <Stack gap={4}>
          <Text fw={600}>
            <Trans>Rev {latest.number}</Trans>
          </Text>
          <Text size="sm" c="dimmed" data-testid="released-by">
            <ReleasedBy at={latest.released_at} by={latest.released_by?.name ?? null} />
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {latest.reason}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>Nessuna revisione rilasciata: non si possono ancora fare ordini di lavoro di questo prodotto.</Trans>
        </Text>
      )}
    </Card>
  )
}

function ReleasedBy({ at, by }: { at: number; by: string | null }) {
  const when = formatDateTime(at)
  return by ? <Trans>Rilasciata il {when} da {by}</Trans> : <Trans>Rilasciata il {when}</Trans>
}
