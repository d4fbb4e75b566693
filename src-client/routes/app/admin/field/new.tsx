import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { BackLink } from '../-library-ui'
import { FieldForm } from './-field-form'

export const Route = createFileRoute('/app/admin/field/new')({
  component: NewField,
})

function NewField() {
  return (
    <>
      <BackLink to="/app/admin/field">
        <Trans>Campi personalizzati</Trans>
      </BackLink>
      <Title order={2} mb="md">
        <Trans>Nuovo campo</Trans>
      </Title>
      <FieldForm />
    </>
  )
}
