import { Trans, useLingui } from '@lingui/react/macro'
import { List, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { ApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { LibraryDeleteModal } from '../../-library-pages'

export const Route = createFileRoute('/app/admin/issue-types/$issueTypeKey/delete')({
  component: DeleteIssueType,
})

/** Opened over the type's detail. A type in use is refused; the refusal lists the issues using it. */
function DeleteIssueType() {
  const { t } = useLingui()
  const { issueTypeKey } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.issueTypes.get.queryOptions({ key: issueTypeKey }))
  const label = data ? `${data.code} · ${data.name}` : ''
  return (
    <LibraryDeleteModal
      title={<Trans>Elimina tipo di segnalazione</Trans>}
      question={<Trans>Eliminare il tipo «{label}»? Un tipo usato da segnalazioni non può essere eliminato: rendilo non attivo.</Trans>}
      remove={() => trpcClient.issueTypes.delete.mutate({ key: issueTypeKey })}
      deletedMessage={t`Tipo di segnalazione eliminato`}
      list="/app/admin/issue-types"
      queries={{ record: trpc.issueTypes.get.queryKey({ key: issueTypeKey }), list: trpc.issueTypes.list.pathKey() }}
      onCancel={() => navigate({ to: '/app/admin/issue-types/$issueTypeKey', params: { issueTypeKey } })}
      refusal={(err) => <IssuesUsingType error={err} />}
    />
  )
}

function IssuesUsingType({ error }: { error: ApiError }) {
  const issues = Array.isArray(error.extra.issues) ? (error.extra.issues as string[]) : []
  return (
    <>
      {errorMessage(error)}
      {issues.length > 0 && (
        <>
          <Text size="sm" mt="xs">
            <Trans>Segnalazioni che lo usano:</Trans>
          </Text>
          <List size="sm" data-testid="issues-using-type">
            {issues.map((code) => (
              <List.Item key={code}>{code}</List.Item>
            ))}
          </List>
        </>
      )}
    </>
  )
}
