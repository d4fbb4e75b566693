import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { LibraryFormPage } from '../-library-pages'
import { IssueTypeForm } from './-issue-type-form'

export const Route = createFileRoute('/app/admin/issue-types/new')({
  component: NewIssueType,
})

function NewIssueType() {
  return (
    <LibraryFormPage list="/app/admin/issue-types" listLabel={<Trans>Tipi di segnalazione</Trans>} title={<Trans>Nuovo tipo di segnalazione</Trans>}>
      <IssueTypeForm />
    </LibraryFormPage>
  )
}
