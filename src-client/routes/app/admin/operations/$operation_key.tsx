import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { BackLink, LoadFailed } from '../-library-ui'
import { OperationForm } from './-operation-form'

export const Route = createFileRoute('/app/admin/operations/$operation_key')({
  component: OperationDetail,
})

function OperationDetail() {
  const { operation_key } = Route.useParams()
  const { data, error } = useQuery(trpc.operations.get.queryOptions({ key: operation_key }))
  const back = (
    <BackLink to="/app/admin/operations">
      <Trans>Operazioni</Trans>
    </BackLink>
  )
  if (error) return <LoadFailed error={error} back={back} />
  if (!data) return <Loading />
  return (
    <>
      {back}
      <Title order={2} mb="md">
        {data.name}
      </Title>
      {/* A saved version starts a fresh form. */}
      <OperationForm key={`${data._key}:${data.updated_at}`} operation={data} />
      <Outlet />
    </>
  )
}
