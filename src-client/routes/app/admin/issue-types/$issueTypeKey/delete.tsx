import { Trans, useLingui } from '@lingui/react/macro'
import { List, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { ConfirmModal } from '../../-library-ui'

export const Route = createFileRoute('/app/admin/issue-types/$issueTypeKey/delete')({
  component: DeleteIssueType,
})

/** Opened over the type's detail. A type in use is refused; the refusal lists the issues using it. */
function DeleteIssueType() {
  const { t } = useLingui()
  const { issueTypeKey } = Route.useParams()
  const navigate = useNavigate()
  const { data } = useQuery(trpc.issueTypes.get.queryOptions({ key: issueTypeKey }))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ReactNode>(null)
  const close = () => navigate({ to: '/app/admin/issue-types/$issueTypeKey', params: { issueTypeKey } })

  async function confirm() {
    setBusy(true)
    try {
      await trpcClient.issueTypes.delete.mutate({ key: issueTypeKey })
      notifySuccess(t`Tipo di segnalazione eliminato`)
      await navigate({ to: '/app/admin/issue-types', ignoreBlocker: true })
      queryClient.removeQueries({ queryKey: trpc.issueTypes.get.queryKey({ key: issueTypeKey }) })
      await queryClient.invalidateQueries({ queryKey: trpc.issueTypes.list.pathKey() })
    } catch (e) {
      const err = toApiError(e)
      const issues = Array.isArray(err.extra.issues) ? (err.extra.issues as string[]) : []
      setError(
        <>
          {errorMessage(err)}
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
        </>,
      )
    } finally {
      setBusy(false)
    }
  }

  const label = data ? `${data.code} · ${data.name}` : ''
  return (
    <ConfirmModal title={<Trans>Elimina tipo di segnalazione</Trans>} busy={busy} error={error} onConfirm={confirm} onCancel={close}>
      <Text size="sm">
        <Trans>Eliminare il tipo «{label}»? Un tipo usato da segnalazioni non può essere eliminato: rendilo non attivo.</Trans>
      </Text>
    </ConfirmModal>
  )
}
