import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { LibraryDeleteModal } from '../../-library-pages'

export const Route = createFileRoute('/app/admin/counter/$counter_key/delete')({
  component: DeleteCounter,
})

/** Opened over the counter's detail. A counter that made serials or that a phase uses is refused. */
function DeleteCounter() {
  const { t } = useLingui()
  const { counter_key } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.counters.get.queryOptions({ key: counter_key }))
  const name = data?.name ?? ''
  return (
    <LibraryDeleteModal
      title={<Trans>Elimina contatore</Trans>}
      question={<Trans>Eliminare il contatore «{name}»? Un contatore usato da seriali o fasi non può essere eliminato.</Trans>}
      remove={() => trpcClient.counters.delete.mutate({ key: counter_key })}
      deletedMessage={t`Contatore eliminato`}
      list="/app/admin/counter"
      queries={{ record: trpc.counters.get.queryKey({ key: counter_key }), list: trpc.counters.list.pathKey() }}
      onCancel={() => navigate({ to: '/app/admin/counter/$counter_key', params: { counter_key } })}
    />
  )
}
