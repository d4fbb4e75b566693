import { Alert, Button, Center, PasswordInput, TextInput, Title } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { auth, type LoginReason } from '../lib/auth-store'
import { landingPath } from '../lib/home-page'
import { AuthForm, useCredentialsSubmit } from './AuthForm'

export function LoginPage({ redirectTo, reason }: { redirectTo?: string; reason?: LoginReason }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const { busy, error, submit } = useCredentialsSubmit(
    async () => {
      const session = await auth.login(username.trim(), password)
      await navigate({ href: landingPath(session, redirectTo) ?? '/app', replace: true })
    },
    () => setPassword(''),
  )

  return (
    <Center mih="100vh" p="md">
      <AuthForm
        onSubmit={submit}
        error={error}
        actions={
          <Button type="submit" size="md" loading={busy}>
            <Trans>Accedi</Trans>
          </Button>
        }
      >
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
      </AuthForm>
    </Center>
  )
}
