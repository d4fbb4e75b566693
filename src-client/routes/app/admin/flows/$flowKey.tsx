import { Trans } from '@lingui/react/macro'
import { Anchor, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { LoadError, Loading } from '../../../../components/QueryState'
import { trpc } from '../../../../lib/trpc'
import { Deliveries } from './-deliveries'
import { FlowForm } from './-flow-form'

export const Route = createFileRoute('/app/admin/flows/$flowKey')({
  component: FlowDetail,
})

function FlowDetail() {
  const { flowKey } = Route.useParams()
  const { data, error } = useQuery(trpc.flows.get.queryOptions({ key: flowKey }))
  const back = (
    <Anchor component={Link} to="/app/admin/flows" size="sm">
      ← <Trans>Flussi dati</Trans>
    </Anchor>
  )
  if (error)
    return (
      <>
        {back}
        <LoadError error={error} />
      </>
    )
  if (!data) return <Loading />
  return (
    <>
      {back}
      <Title order={2} mb="md" mt="xs">
        {data.name}
      </Title>
      <FlowForm key={`${data._key}:${data.updated_at}`} flow={data} />
      <Deliveries flowKey={data._key} />
    </>
  )
}
