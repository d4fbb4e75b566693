import { Alert, Button, PasswordInput, Stack } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { PASSWORD_MIN_LENGTH } from '../../src/domains/session/schemas'
import { toApiError } from '../lib/api-error'
import { auth } from '../lib/auth-store'
import { errorMessage } from '../lib/error-messages'
import { rest } from '../lib/rest'

/** Replaces the own password; temporary passwords must go through here at first sign-in. */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [repeat, setRepeat] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (next.length < PASSWORD_MIN_LENGTH) return setError(t`La nuova password deve avere almeno ${PASSWORD_MIN_LENGTH} caratteri`)
    if (next !== repeat) return setError(t`Le due password non coincidono`)
    setBusy(true)
    try {
      await rest('POST', '/password', { current_password: current, new_password: next })
      await auth.refreshSession()
      onDone()
    } catch (err) {
      setError(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit}>
      <Stack>
        <PasswordInput label={t`Password attuale`} name="current-password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
        <PasswordInput label={t`Nuova password`} name="new-password" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.currentTarget.value)} />
        <PasswordInput label={t`Ripeti la nuova password`} name="repeat-password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.currentTarget.value)} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          <Trans>Cambia password</Trans>
        </Button>
      </Stack>
    </form>
  )
}
