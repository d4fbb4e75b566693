import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { formatDateTime } from '../../../../../src/i18n/format'
import { NumberTextInput } from '../../../../components/NumberTextInput'
import { LoadError, Loading } from '../../../../components/QueryState'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { formatQuantity, MOVEMENT_STATUS_COLORS, MOVEMENT_STATUS_LABELS, MOVEMENT_TYPE_LABELS, movementName } from '../../../../components/warehouse/labels'
import { RevertDialog } from '../../../../components/warehouse/RevertDialog'
import { QUANTITY_DECIMALS, QUANTITY_MAX } from '../../../../../src/domains/movements/schemas'
import { readNumberText } from '../../../../../src/i18n/number-text'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { SignatureLines } from '../../../../components/signatures/SignatureLines'

export const Route = createFileRoute('/app/warehouse/movements/$movementKey')({
  component: MovementPage,
})

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children || '-'}
      </Text>
    </div>
  )
}

const positionLink = (key: string | null, code: string | null) =>
  key && code ? (
    <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/app/warehouse/positions/$positionKey" params={{ positionKey: key }} />}>
      {code}
    </Anchor>
  ) : null
const movementLink = (key: string, label: ReactNode) => (
  <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/app/warehouse/movements/$movementKey" params={{ movementKey: key }} />}>
    {label}
  </Anchor>
)

/** One movement: what, from where to where, how much, who and when; confirm or cancel a planned one, revert a confirmed one. */
function MovementPage() {
  const { t, i18n } = useLingui()
  const { movementKey } = Route.useParams()
  const canEdit = useCanEditWarehouse()
  const movement = useQuery(trpc.movements.get.queryOptions({ key: movementKey }))
  const signatures = useQuery(trpc.movements.signatures.queryOptions({ key: movementKey }))
  const [reverting, setReverting] = useState(false)
  const [quantity, setQuantity] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const back = (
    <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/movements" />} size="sm" w="fit-content">
      ← <Trans>Movimenti</Trans>
    </Anchor>
  )
  if (movement.isPending) return <Loading />
  if (movement.isError)
    return (
      <Stack>
        {back}
        <LoadError error={movement.error} />
      </Stack>
    )
  const m = movement.data
  const name = movementName(m.number)
  const q = readNumberText(quantity ?? formatQuantity(m.planned_quantity), { min: 0, max: QUANTITY_MAX, decimals: QUANTITY_DECIMALS, required: true })
  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true)
    try {
      await action()
      await queryClient.invalidateQueries()
      notifySuccess(done)
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Stack gap="md">
      {back}
      <Group gap="sm">
        <Title order={2} data-testid="movement-title">
          {name}
        </Title>
        <Badge variant="light" color={MOVEMENT_STATUS_COLORS[m.status]} data-testid="movement-status">
          {i18n._(MOVEMENT_STATUS_LABELS[m.status])}
        </Badge>
        {m.reverted_by_key && (
          <Badge variant="light" color="orange" data-testid="movement-reverted">
            {t`Stornato`}
          </Badge>
        )}
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Field label={t`Tipo`}>{i18n._(MOVEMENT_TYPE_LABELS[m.type])}</Field>
          <Field label={t`Prodotto`}>{`${m.product_code} ${m.product_description}`}</Field>
          <Field label={t`Seriale`}>{m.serial}</Field>
          <Field label={t`Di proprietà`}>{m.owned ? t`Sì` : t`No`}</Field>
          <Field label={t`Da`}>{positionLink(m.from_position_key, m.from_position_code)}</Field>
          <Field label={t`A`}>{positionLink(m.to_position_key, m.to_position_code)}</Field>
          <Field label={t`Quantità pianificata`}>{formatQuantity(m.planned_quantity)}</Field>
          <Field label={t`Quantità confermata`}>{formatQuantity(m.confirmed_quantity)}</Field>
          <Field label={t`Inizio`}>{formatDateTime(m.started_at)}</Field>
          <Field label={t`Fine`}>{m.ended_at ? formatDateTime(m.ended_at) : ''}</Field>
          <Field label={t`Chi`}>{m.user_name}</Field>
          <Field label={t`Nota o motivo`}>{m.reason}</Field>
          {m.reverts_key && <Field label={t`Storno di`}>{movementLink(m.reverts_key, m.reverts_number === null ? t`movimento originale` : movementName(m.reverts_number))}</Field>}
          {m.reverted_by_key && (
            <Field label={t`Stornato da`}>
              <span data-testid="movement-reverted-by">{movementLink(m.reverted_by_key, m.reverted_by_number === null ? t`movimento di storno` : movementName(m.reverted_by_number))}</span>
            </Field>
          )}
          {m.revert_reason && (
            <Field label={t`Motivo dello storno`}>
              {m.revert_reason}
              <SignatureLines signatures={signatures.data ?? []} />
            </Field>
          )}
        </SimpleGrid>
      </Card>
      {canEdit && m.status === 'planned' && (
        <Group align="flex-end">
          <NumberTextInput
            label={t`Quantità spostata`}
            min={0}
            max={QUANTITY_MAX}
            decimals={QUANTITY_DECIMALS}
            value={quantity ?? formatQuantity(m.planned_quantity)}
            onChange={setQuantity}
            w={160}
          />
          <Button
            loading={busy}
            disabled={!q.ok || !q.value}
            onClick={() => void run(() => trpcClient.movements.confirm.mutate({ key: m._key, quantity: q.ok ? (q.value ?? undefined) : undefined }), t`Movimento confermato`)}
            data-testid="movement-confirm"
          >
            <Trans>Conferma</Trans>
          </Button>
          <Button variant="subtle" color="red" loading={busy} onClick={() => void run(() => trpcClient.movements.cancel.mutate({ key: m._key }), t`Movimento annullato`)}>
            <Trans>Annulla il movimento</Trans>
          </Button>
        </Group>
      )}
      {canEdit && m.status === 'confirmed' && !m.reverted_by_key && (
        <Group>
          <Button color="orange" variant="light" onClick={() => setReverting(true)} data-testid="movement-revert">
            <Trans>Storna</Trans>
          </Button>
        </Group>
      )}
      {reverting && <RevertDialog movementKey={m._key} name={name} onClose={() => setReverting(false)} />}
    </Stack>
  )
}
