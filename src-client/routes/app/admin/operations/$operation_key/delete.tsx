import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { LibraryDeleteModal } from '../../-library-pages'

export const Route = createFileRoute('/app/admin/operations/$operation_key/delete')({
  component: DeleteOperation,
})

/** Opened over the operation's detail; an operation used in product processes is refused by the server. */
function DeleteOperation() {
  const { t } = useLingui()
  const { operation_key } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.operations.get.queryOptions({ key: operation_key }))
  const name = data?.name ?? ''
  return (
    <LibraryDeleteModal
      title={<Trans>Elimina operazione</Trans>}
      question={<Trans>Eliminare l'operazione «{name}»? Un'operazione usata nei processi dei prodotti non può essere eliminata.</Trans>}
      remove={() => trpcClient.operations.delete.mutate({ key: operation_key })}
      deletedMessage={t`Operazione eliminata`}
      list="/app/admin/operations"
      queries={{ record: trpc.operations.get.queryKey({ key: operation_key }), list: trpc.operations.list.pathKey() }}
      onCancel={() => navigate({ to: '/app/admin/operations/$operation_key', params: { operation_key } })}
    />
  )
}
