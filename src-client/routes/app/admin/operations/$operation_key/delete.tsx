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

export const Route = createFileRoute('/app/admin/operations/$operation_key/delete')({
  component: DeleteOperation,
})

/** Opened over the operation's detail; an operation used in product processes is refused by the server. */
function DeleteOperation() {
  const { t } = useLingui()
  const { operation_key } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.operations.get.queryOptions({ key: operation_key }))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const close = () => navigate({ to: '/app/admin/operations/$operation_key', params: { operation_key } })

  async function confirm() {
    setBusy(true)
    try {
      await trpcClient.operations.delete.mutate({ key: operation_key })
      notifySuccess(t`Operazione eliminata`)
      await navigate({ to: '/app/admin/operations', ignoreBlocker: true })
      queryClient.removeQueries({ queryKey: trpc.operations.get.queryKey({ key: operation_key }) })
      await queryClient.invalidateQueries({ queryKey: trpc.operations.list.pathKey() })
    } catch (e) {
      setError(errorMessage(toApiError(e)))
    } finally {
      setBusy(false)
    }
  }

  const name = data?.name ?? ''
  return (
    <ConfirmModal title={<Trans>Elimina operazione</Trans>} busy={busy} error={error} onConfirm={confirm} onCancel={close}>
      <Text size="sm">
        <Trans>Eliminare l'operazione «{name}»? Un'operazione usata nei processi dei prodotti non può essere eliminata.</Trans>
      </Text>
    </ConfirmModal>
  )
}
