import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { LibraryFormPage } from '../-library-pages'
import { FieldForm } from './-field-form'

export const Route = createFileRoute('/app/admin/field/new')({
  component: NewField,
})

function NewField() {
  return (
    <LibraryFormPage list="/app/admin/field" listLabel={<Trans>Campi personalizzati</Trans>} title={<Trans>Nuovo campo</Trans>}>
      <FieldForm />
    </LibraryFormPage>
  )
}
