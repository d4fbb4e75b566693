import { Trans, useLingui } from '@lingui/react/macro'
import { Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { ConfirmModal } from '../../-library-ui'

export const Route = createFileRoute('/app/admin/counter/$counter_key/delete')({
  component: DeleteCounter,
})

/** Opened over the counter's detail. A counter that made serials or that a phase uses is refused. */
function DeleteCounter() {
  const { t } = useLingui()
  const { counter_key } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.counters.get.queryOptions({ key: counter_key }))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const close = () => navigate({ to: '/app/admin/counter/$counter_key', params: { counter_key } })

  async function confirm() {
    setBusy(true)
    try {
      await trpcClient.counters.delete.mutate({ key: counter_key })
      notifySuccess(t`Contatore eliminato`)
      await navigate({ to: '/app/admin/counter', ignoreBlocker: true })
      queryClient.removeQueries({ queryKey: trpc.counters.get.queryKey({ key: counter_key }) })
      await queryClient.invalidateQueries({ queryKey: trpc.counters.list.pathKey() })
    } catch (e) {
      setError(errorMessage(toApiError(e)))
    } finally {
      setBusy(false)
    }
  }

  const name = data?.name ?? ''
  return (
    <ConfirmModal title={<Trans>Elimina contatore</Trans>} busy={busy} error={error} onConfirm={confirm} onCancel={close}>
      <Text size="sm">
        <Trans>Eliminare il contatore «{name}»? Un contatore usato da seriali o fasi non può essere eliminato.</Trans>
      </Text>
    </ConfirmModal>
  )
}
