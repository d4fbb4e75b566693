import { Trans } from '@lingui/react/macro'
import { Anchor, Stack, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { Loading } from '../../../../components/QueryState'
import { MovementForm } from '../../../../components/warehouse/MovementForm'
import { trpc } from '../../../../lib/trpc'

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)

export const Route = createFileRoute('/app/warehouse/movements/new')({
  validateSearch: (s: Record<string, unknown>): { to?: string; from?: string } => ({ to: text(s.to), from: text(s.from) }),
  component: NewMovementPage,
})

/** A new movement by hand (load, transfer, unload, adjustment); `?to=` / `?from=` start from a position. */
function NewMovementPage() {
  const { to, from } = Route.useSearch()
  const navigate = useNavigate()
  const toRow = useQuery({ ...trpc.positions.get.queryOptions({ key: to ?? '' }), enabled: Boolean(to) })
  const fromRow = useQuery({ ...trpc.positions.get.queryOptions({ key: from ?? '' }), enabled: Boolean(from) })
  if ((to && toRow.isPending) || (from && fromRow.isPending)) return <Loading />
  const picked = (p: typeof toRow.data) => (p ? { _key: p._key, code: p.code, description: p.path_codes.join(' / ') } : null)
  return (
    <Stack gap="md">
      <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/movements" />} size="sm" w="fit-content">
        ← <Trans>Movimenti</Trans>
      </Anchor>
      <Title order={2}>
        <Trans>Nuovo movimento</Trans>
      </Title>
      <MovementForm
        initial={{ type: from && to ? 'transfer' : from ? 'unload' : 'load', to: picked(toRow.data), from: picked(fromRow.data) }}
        onDone={(m) => void navigate({ to: '/app/warehouse/movements/$movementKey', params: { movementKey: m._key } })}
      />
    </Stack>
  )
}
