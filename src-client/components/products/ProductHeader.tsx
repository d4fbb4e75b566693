import { Trans } from '@lingui/react/macro'
import { Anchor, Group, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { trpc } from '../../lib/trpc'
import { RevisionBar } from '../revisions/RevisionBar'
import { ProductStateBadge } from './ProductBadges'

/** Above a product's tabs: back to the list, its code, description and state, and its revision (draft or released). */
export function ProductHeader({ productKey }: { productKey: string }) {
  const { data } = useQuery(trpc.products.get.queryOptions({ key: productKey }))
  return (
    <div>
      <Anchor component={Link} to="/app/library/product" size="sm">
        ← <Trans>Prodotti</Trans>
      </Anchor>
      <Group gap="sm" mt={4} mb="xs" align="baseline" wrap="nowrap">
        <Title order={2} style={{ whiteSpace: 'nowrap' }} data-testid="product-code">
          {data?.code ?? '…'}
        </Title>
        {data && (
          <Text c="dimmed" truncate="end" style={{ minWidth: 0 }}>
            {data.description}
          </Text>
        )}
        {data && <ProductStateBadge active={data.active} trash={data.trash} size="md" />}
      </Group>
      {data && <RevisionBar productKey={productKey} readOnly={data.trash} />}
    </div>
  )
}
