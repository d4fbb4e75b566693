import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { trpc } from '../../../../lib/trpc'
import { LibraryDetailPage } from '../-library-pages'
import { FieldForm } from './-field-form'

export const Route = createFileRoute('/app/admin/field/$field_key')({
  component: FieldDetail,
})

function FieldDetail() {
  const { field_key } = Route.useParams()
  const query = useQuery(trpc.formFields.get.queryOptions({ key: field_key }))
  return (
    <LibraryDetailPage query={query} list="/app/admin/field" listLabel={<Trans>Campi personalizzati</Trans>} title={(row) => row.name}>
      {(row) => <FieldForm field={row} />}
    </LibraryDetailPage>
  )
}
