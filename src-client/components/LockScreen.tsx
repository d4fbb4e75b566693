import { Alert, Avatar, Box, Button, Center, FocusTrap, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core'
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
    <Box
      pos="fixed"
      inset={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 400, overflowY: 'auto' }}
      data-testid="lock-screen"
      role="dialog"
      aria-modal="true"
      aria-labelledby="lock-title"
    >
      <FocusTrap active>
        <Center mih="100%" p="md">
          <Paper withBorder shadow="md" p="xl" w={420} maw="100%">
            <form onSubmit={submit}>
              <Stack>
                <Group gap="sm" wrap="nowrap">
                  <Avatar color="teal" radius="xl" size="lg">
                    {initials(who)}
                  </Avatar>
                  <div>
                    <Title order={3} id="lock-title">
                      <Trans>Sessione bloccata</Trans>
                    </Title>
                    {who && <Text c="dimmed">{who}</Text>}
                  </div>
                </Group>
                <Text>
                  <Trans>Inserisci la password per continuare.</Trans>
                </Text>
                <PasswordInput
                  label={t`Password`}
                  name="unlock-password"
                  autoComplete="current-password"
                  data-autofocus
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
          </Paper>
        </Center>
      </FocusTrap>
    </Box>
  )
}

const initials = (name: string | null) =>
  (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('') || '?'

