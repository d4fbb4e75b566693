import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { BackLink } from '../-library-ui'
import { CounterForm } from './-counter-form'

export const Route = createFileRoute('/app/admin/counter/new')({
  component: NewCounter,
})

function NewCounter() {
  return (
    <>
      <BackLink to="/app/admin/counter">
        <Trans>Contatori</Trans>
      </BackLink>
      <Title order={2} mb="md">
        <Trans>Nuovo contatore</Trans>
      </Title>
      <CounterForm />
    </>
  )
}
