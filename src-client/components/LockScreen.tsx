import { Alert, Button, Modal, PasswordInput, Stack, Text } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { toApiError } from '../lib/api-error'
import { auth } from '../lib/auth-store'
import { errorMessage } from '../lib/error-messages'
import { useAuthState } from '../lib/use-auth'

/** SPEC 2: shown after the idle timeout or a reload; asks for the password. */
export function LockScreen() {
  const { t } = useLingui()
  const state = useAuthState()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (state.status !== 'locked') return null
  const who = state.session ? `${state.session.name} ${state.session.surname}`.trim() || state.session.username : state.username

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await auth.unlock(password)
      setPassword('')
    } catch (err) {
      setError(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      fullScreen
      overlayProps={{ backgroundOpacity: 0.85, blur: 6 }}
      data-testid="lock-screen"
      title={<Trans>Sessione bloccata</Trans>}
    >
      <form onSubmit={submit}>
        <Stack maw={380} mx="auto" mt="10vh">
          <Text size="lg">
            {who ? <Trans>Sessione di {who}: inserisci la password per continuare.</Trans> : <Trans>Inserisci la password per continuare.</Trans>}
          </Text>
          <PasswordInput
            label={t`Password`}
            name="unlock-password"
            autoComplete="current-password"
            autoFocus
            required
            size="md"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" size="md" loading={busy}>
            <Trans>Sblocca</Trans>
          </Button>
          <Button variant="subtle" onClick={() => auth.logout()}>
            <Trans>Chiudi la sessione e avviane un'altra</Trans>
          </Button>
        </Stack>
      </form>
    </Modal>
  )
}
