import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { LibraryDetailPage } from '../-library-pages'
import { IssueTypeForm } from './-issue-type-form'

export const Route = createFileRoute('/app/admin/issue-types/$issueTypeKey')({
  component: IssueTypeDetail,
})

function IssueTypeDetail() {
  const { issueTypeKey } = Route.useParams()
  const query = useQuery(trpc.issueTypes.get.queryOptions({ key: issueTypeKey }))
  return (
    <LibraryDetailPage
      query={query}
      list="/app/admin/issue-types"
      listLabel={<Trans>Tipi di segnalazione</Trans>}
      title={(row) => (
        <>
          {row.code} · {row.name}
        </>
      )}
    >
      {(row) => <IssueTypeForm issueType={row} />}
    </LibraryDetailPage>
  )
}
