import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { LibraryFormPage } from '../-library-pages'
import { OperationForm } from './-operation-form'

export const Route = createFileRoute('/app/admin/operations/new')({
  component: NewOperation,
})

function NewOperation() {
  return (
    <LibraryFormPage list="/app/admin/operations" listLabel={<Trans>Operazioni</Trans>} title={<Trans>Nuova operazione</Trans>}>
      <OperationForm />
    </LibraryFormPage>
  )
}
