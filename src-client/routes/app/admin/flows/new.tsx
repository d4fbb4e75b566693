import { Trans } from '@lingui/react/macro'
import { Anchor, Title } from '@mantine/core'
import { createFileRoute, Link } from '@tanstack/react-router'
import { FlowForm } from './-flow-form'

export const Route = createFileRoute('/app/admin/flows/new')({
  component: NewFlow,
})

function NewFlow() {
  return (
    <>
      <Anchor component={Link} to="/app/admin/flows" size="sm">
        ← <Trans>Flussi dati</Trans>
      </Anchor>
      <Title order={2} mb="md" mt="xs">
        <Trans>Nuovo flusso</Trans>
      </Title>
      <FlowForm />
    </>
  )
}
