import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { LibraryDetailPage } from '../-library-pages'
import { CounterForm } from './-counter-form'

export const Route = createFileRoute('/app/admin/counter/$counter_key')({
  component: CounterDetail,
})

function CounterDetail() {
  const { counter_key } = Route.useParams()
  const query = useQuery(trpc.counters.get.queryOptions({ key: counter_key }))
  return (
    <LibraryDetailPage query={query} list="/app/admin/counter" listLabel={<Trans>Contatori</Trans>} title={(row) => row.name}>
      {(row) => <CounterForm counter={row} />}
    </LibraryDetailPage>
  )
}
