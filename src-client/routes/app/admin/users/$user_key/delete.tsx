import { Trans, useLingui } from '@lingui/react/macro'
import { Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { ConfirmModal } from '../../-library-ui'
import { invalidateUsers } from '../-user-ui'

export const Route = createFileRoute('/app/admin/users/$user_key/delete')({
  component: DeleteUser,
})

/** Delete = archive (SPEC 4): hidden from lists, no sign-in, data kept; it can be restored. */
function DeleteUser() {
  const { t } = useLingui()
  const { user_key } = Route.useParams()
  const navigate = useNavigate()
  const user = useQuery(trpc.users.get.queryOptions({ key: user_key }))
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const close = () => navigate({ to: '/app/admin/users/$user_key', params: { user_key } })
  const username = user.data?.username ?? ''

  async function archive() {
    setBusy(true)
    setFailure(null)
    try {
      await trpcClient.users.archive.mutate({ key: user_key })
      await invalidateUsers()
      notifySuccess(t`Utente eliminato`)
      await navigate({ to: '/app/admin/users' })
    } catch (err) {
      setFailure(errorMessage(toApiError(err)))
      setBusy(false)
    }
  }

  return (
    <ConfirmModal title={<Trans>Elimina utente</Trans>} busy={busy} error={failure} onConfirm={archive} onCancel={close} disabled={!user.data}>
      <Text size="sm">
        <Trans>
          Eliminare l'utente <b>{username}</b>? Non comparirà più negli elenchi e non potrà accedere; le sue sessioni verranno chiuse. I suoi
          dati restano nello storico e potrai ripristinarlo dall'elenco degli utenti eliminati.
        </Trans>
      </Text>
    </ConfirmModal>
  )
}
