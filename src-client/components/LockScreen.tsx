import { Avatar, Box, Button, Center, FocusTrap, Group, PasswordInput, Text, Title } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { plural } from '@lingui/core/macro'
import { useEffect, useState } from 'react'
import { auth } from '../lib/auth-store'
import { keptWritesOf } from '../offline/kept-count'
import { useAuthState } from '../lib/use-auth'
import { displayNameOf, initialsOf } from '../lib/user-names'
import { AuthForm, useCredentialsSubmit } from './AuthForm'

/** SPEC 2: shown after the idle timeout or a reload; asks for the password. */
export function LockScreen() {
  const { t } = useLingui()
  const state = useAuthState()
  const [password, setPassword] = useState('')
  const { busy, error, submit } = useCredentialsSubmit(async () => {
    await auth.unlock(password)
    setPassword('')
  })
  const kept = useKeptWrites(state.status === 'locked' ? (state.session?.user_key ?? null) : null)
  if (state.status !== 'locked') return null
  const who = state.session ? displayNameOf(state.session) : state.username

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
          <AuthForm
            onSubmit={submit}
            error={error}
            actions={
              <>
                <Button type="submit" size="md" loading={busy}>
                  <Trans>Sblocca</Trans>
                </Button>
                <Button variant="subtle" onClick={() => auth.logout()}>
                  <Trans>Chiudi la sessione e avviane un'altra</Trans>
                </Button>
              </>
            }
          >
            <Group gap="sm" wrap="nowrap">
              <Avatar color="teal" radius="xl" size="lg">
                {initialsOf(state.session ?? { name: '', surname: '', username: state.username ?? '' })}
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
            {kept > 0 && (
              <Text fw={600} data-testid="lock-kept-writes">
                {plural(kept, {
                  one: '# operazione salvata su questo dispositivo: viene inviata dopo lo sblocco, con la connessione.',
                  other: '# operazioni salvate su questo dispositivo: vengono inviate dopo lo sblocco, con la connessione.',
                })}
              </Text>
            )}
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
          </AuthForm>
        </Center>
      </FocusTrap>
    </Box>
  )
}

/** How many writes the locked user has kept on this device (issue 24). */
function useKeptWrites(userKey: string | null): number {
  const [count, setCount] = useState(0)
  useEffect(() => {
    setCount(0)
    if (!userKey) return
    let live = true
    void keptWritesOf(userKey).then((n) => live && setCount(n))
    return () => {
      live = false
    }
  }, [userKey])
  return count
}
