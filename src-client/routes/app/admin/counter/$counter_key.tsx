import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { Loading } from '../../../../components/QueryState'
import { trpc } from '../../../../lib/trpc'
import { BackLink, LoadFailed } from '../-library-ui'
import { CounterForm } from './-counter-form'

export const Route = createFileRoute('/app/admin/counter/$counter_key')({
  component: CounterDetail,
})

function CounterDetail() {
  const { counter_key } = Route.useParams()
  const { data, error } = useQuery(trpc.counters.get.queryOptions({ key: counter_key }))
  const back = (
    <BackLink to="/app/admin/counter">
      <Trans>Contatori</Trans>
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
      <CounterForm key={`${data._key}:${data.updated_at}`} counter={data} />
      <Outlet />
    </>
  )
}
