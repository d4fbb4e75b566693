import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { LibraryFormPage } from '../-library-pages'
import { CounterForm } from './-counter-form'

export const Route = createFileRoute('/app/admin/counter/new')({
  component: NewCounter,
})

function NewCounter() {
  return (
    <LibraryFormPage list="/app/admin/counter" listLabel={<Trans>Contatori</Trans>} title={<Trans>Nuovo contatore</Trans>}>
      <CounterForm />
    </LibraryFormPage>
  )
}
