import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { BackLink, LoadFailed } from '../-library-ui'
import { FieldForm } from './-field-form'

export const Route = createFileRoute('/app/admin/field/$field_key')({
  component: FieldDetail,
})

function FieldDetail() {
  const { field_key } = Route.useParams()
  const { data, error } = useQuery(trpc.formFields.get.queryOptions({ key: field_key }))
  const back = (
    <BackLink to="/app/admin/field">
      <Trans>Campi personalizzati</Trans>
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
      <FieldForm key={`${data._key}:${data.updated_at}`} field={data} />
    </>
  )
}
