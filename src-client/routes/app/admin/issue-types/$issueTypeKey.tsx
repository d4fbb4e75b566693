import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { BackLink, LoadFailed } from '../-library-ui'
import { IssueTypeForm } from './-issue-type-form'

export const Route = createFileRoute('/app/admin/issue-types/$issueTypeKey')({
  component: IssueTypeDetail,
})

function IssueTypeDetail() {
  const { issueTypeKey } = Route.useParams()
  const { data, error } = useQuery(trpc.issueTypes.get.queryOptions({ key: issueTypeKey }))
  const back = (
    <BackLink to="/app/admin/issue-types">
      <Trans>Tipi di segnalazione</Trans>
    </BackLink>
  )
  if (error) return <LoadFailed error={error} back={back} />
  if (!data) return <Loading />
  return (
    <>
      {back}
      <Title order={2} mb="md">
        {data.code} · {data.name}
      </Title>
      <IssueTypeForm key={`${data._key}:${data.updated_at}`} issueType={data} />
      <Outlet />
    </>
  )
}
