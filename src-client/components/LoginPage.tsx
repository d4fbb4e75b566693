import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { toApiError } from '../lib/api-error'
import { auth, type LoginReason } from '../lib/auth-store'
import { errorMessage } from '../lib/error-messages'
import { landingPath } from '../lib/home-page'

export function LoginPage({ redirectTo, reason }: { redirectTo?: string; reason?: LoginReason }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const session = await auth.login(username.trim(), password)
      await navigate({ href: landingPath(session, redirectTo) ?? '/app', replace: true })
    } catch (err) {
      setError(errorMessage(toApiError(err)))
      setPassword('')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={400} maw="100%">
        <form onSubmit={submit}>
          <Stack>
            <Title order={2} ta="center">
              progress
            </Title>
            {reason === 'login-first' && (
              <Alert color="orange" data-testid="login-notice">
                <Trans>Effettua prima il login</Trans>
              </Alert>
            )}
            {reason === 'session-terminated' && (
              <Alert color="orange" data-testid="login-notice">
                <Trans>Sessione terminata: accedi di nuovo</Trans>
              </Alert>
            )}
            <TextInput
              label={t`Username`}
              name="username"
              autoComplete="username"
              autoFocus
              required
              size="md"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
            />
            <PasswordInput
              label={t`Password`}
              name="password"
              autoComplete="current-password"
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
              <Trans>Accedi</Trans>
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  )
}
