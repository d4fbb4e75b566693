import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { MOVEMENT_STATUSES, MOVEMENT_TYPES, type MovementStatus, type MovementType } from '../../../../../src/domains/movements/schemas'
import { Loading } from '../../../../components/QueryState'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { ListHeader } from '../../../../components/warehouse/ListFrame'
import { MOVEMENT_STATUS_LABELS, MOVEMENT_TYPE_LABELS } from '../../../../components/warehouse/labels'
import { MovementsTable } from '../../../../components/warehouse/MovementsTable'
import type { Picked } from '../../../../components/warehouse/scan-group'
import { PositionScanInput, ProductScanInput } from '../../../../components/warehouse/ScanInput'
import { UnknownFilter } from '../../../../components/warehouse/UnknownFilter'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { trpc } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/warehouse/movements/')({
  component: MovementsPage,
})

const PAGE_SIZE = 50

/** Movements, newest first, filtered by product, position (and what it contains), type and status. */
function MovementsPage() {
  const { t, i18n } = useLingui()
  const canEdit = useCanEditWarehouse()
  const [product, setProduct] = useState<Picked | null>(null)
  const [position, setPosition] = useState<Picked | null>(null)
  const [unknownProduct, setUnknownProduct] = useState<string | null>(null)
  const [unknownPosition, setUnknownPosition] = useState<string | null>(null)
  const [type, setType] = useState<MovementType | null>(null)
  const [status, setStatus] = useState<MovementStatus | null>(null)
  const [page, setPage] = useState(1)
  const input = {
    product_key: product?._key,
    position_key: position?._key,
    subtree: position ? true : undefined,
    type: type ?? undefined,
    status: status ?? undefined,
    page,
    page_size: PAGE_SIZE,
  }
  const list = useQuery({ ...trpc.movements.list.queryOptions(input), placeholderData: keepPreviousData, staleTime: 0, retry: false })
  // SPEC 8: a movement load failure shows its message in red for 1.5 s.
  useEffect(() => {
    if (list.isError) notifications.show({ color: 'red', message: errorMessage(toApiError(list.error)), autoClose: 1500, withCloseButton: false })
  }, [list.isError, list.error, list.errorUpdatedAt])
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v)
    setPage(1)
  }
  const total = list.data ? `${list.data.total}${list.data.total_capped ? '+' : ''}` : ''
  return (
    <Stack gap="md">
      <ListHeader
        title={<Trans>Movimenti</Trans>}
        subtitle={
          list.data && !unknownProduct && !unknownPosition && (
            <Text c="dimmed" size="sm" mt={4} data-testid="movements-total">
              {t`${total} movimenti`}
            </Text>
          )
        }
        actions={
          canEdit && (
            <Button renderRoot={(p) => <Link {...p} to="/app/warehouse/movements/new" />} data-testid="movement-new">
              <Trans>Nuovo movimento</Trans>
            </Button>
          )
        }
      />
      <Group align="flex-start" gap="sm" wrap="wrap">
        <ProductScanInput label={t`Prodotto`} placeholder={t`Codice`} value={product} onChange={filter(setProduct)} onUnresolved={setUnknownProduct} w={200} data-testid="movements-product" />
        <PositionScanInput label={t`Posizione`} placeholder={t`Codice`} value={position} onChange={filter(setPosition)} onUnresolved={setUnknownPosition} w={200} data-testid="movements-position" />
        <Select
          label={t`Tipo`}
          placeholder={t`Tutti`}
          clearable
          w={170}
          data={MOVEMENT_TYPES.map((v) => ({ value: v, label: i18n._(MOVEMENT_TYPE_LABELS[v]) }))}
          value={type}
          onChange={(v) => filter(setType)(v as MovementType | null)}
        />
        <Select
          label={t`Stato`}
          placeholder={t`Tutti`}
          clearable
          w={160}
          data={MOVEMENT_STATUSES.map((v) => ({ value: v, label: i18n._(MOVEMENT_STATUS_LABELS[v]) }))}
          value={status}
          onChange={(v) => filter(setStatus)(v as MovementStatus | null)}
        />
      </Group>
      {unknownProduct || unknownPosition ? (
        <UnknownFilter position={unknownPosition} product={unknownProduct} testid="movements-unknown-filter" />
      ) : list.isPending ? (
        <Loading />
      ) : list.isError && !list.data ? (
        <Text c="red" size="sm" role="alert" data-testid="movements-error">
          <Trans>Movimenti non caricati</Trans>
        </Text>
      ) : list.data && list.data.rows.length === 0 ? (
        <Badge variant="light" color="gray" size="lg">
          <Trans>Nessun movimento</Trans>
        </Badge>
      ) : list.data ? (
        <MovementsTable rows={list.data.rows} page={page} pageCount={Math.ceil(list.data.total / PAGE_SIZE)} onPage={setPage} />
      ) : null}
    </Stack>
  )
}
