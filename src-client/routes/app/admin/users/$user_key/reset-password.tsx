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
import { invalidateUsers, TempPasswordModal } from '../-user-ui'

export const Route = createFileRoute('/app/admin/users/$user_key/reset-password')({
  component: ResetPassword,
})

/** Over the user's page: confirm, then the new temporary password, shown once. */
function ResetPassword() {
  const { t } = useLingui()
  const { user_key } = Route.useParams()
  const navigate = useNavigate()
  const user = useQuery(trpc.users.get.queryOptions({ key: user_key }))
  const [password, setPassword] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const close = () => navigate({ to: '/app/admin/users/$user_key', params: { user_key } })
  const username = user.data?.username ?? ''

  async function reset() {
    setBusy(true)
    setFailure(null)
    try {
      const res = await trpcClient.users.resetPassword.mutate({ key: user_key })
      await invalidateUsers()
      notifySuccess(t`Password reimpostata`)
      setPassword(res.temp_psw)
    } catch (err) {
      setFailure(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  if (password !== null) {
    return <TempPasswordModal title={<Trans>Password reimpostata</Trans>} username={username} password={password} onClose={close} />
  }
  return (
    <ConfirmModal
      title={<Trans>Reimposta password</Trans>}
      busy={busy}
      error={failure}
      onConfirm={reset}
      onCancel={close}
      confirmLabel={<Trans>Reimposta password</Trans>}
      destructive={false}
      disabled={!user.data}
    >
      <Text size="sm">
        <Trans>
          Reimpostare la password di <b>{username}</b>? Verrà creata una password temporanea, le sessioni aperte dell'utente verranno chiuse
          e al prossimo accesso dovrà sceglierne una nuova.
        </Trans>
      </Text>
    </ConfirmModal>
  )
}
