import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { BackLink } from '../-library-ui'
import { OperationForm } from './-operation-form'

export const Route = createFileRoute('/app/admin/operations/new')({
  component: NewOperation,
})

function NewOperation() {
  return (
    <>
      <BackLink to="/app/admin/operations">
        <Trans>Operazioni</Trans>
      </BackLink>
      <Title order={2} mb="md">
        <Trans>Nuova operazione</Trans>
      </Title>
      <OperationForm />
    </>
  )
}
