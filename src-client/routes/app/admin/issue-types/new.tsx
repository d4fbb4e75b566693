import { Trans } from '@lingui/react/macro'
import { Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { BackLink } from '../-library-ui'
import { IssueTypeForm } from './-issue-type-form'

export const Route = createFileRoute('/app/admin/issue-types/new')({
  component: NewIssueType,
})

function NewIssueType() {
  return (
    <>
      <BackLink to="/app/admin/issue-types">
        <Trans>Tipi di segnalazione</Trans>
      </BackLink>
      <Title order={2} mb="md">
        <Trans>Nuovo tipo di segnalazione</Trans>
      </Title>
      <IssueTypeForm />
    </>
  )
}
