import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { LibraryDetailPage } from '../-library-pages'
import { OperationForm } from './-operation-form'

export const Route = createFileRoute('/app/admin/operations/$operation_key')({
  component: OperationDetail,
})

function OperationDetail() {
  const { operation_key } = Route.useParams()
  const query = useQuery(trpc.operations.get.queryOptions({ key: operation_key }))
  return (
    <LibraryDetailPage query={query} list="/app/admin/operations" listLabel={<Trans>Operazioni</Trans>} title={(row) => row.name}>
      {(row) => <OperationForm operation={row} />}
    </LibraryDetailPage>
  )
}
