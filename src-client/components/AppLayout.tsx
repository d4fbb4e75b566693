import { AppShell, Burger, Button, Center, Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, Outlet, useMatches } from '@tanstack/react-router'
import { hasScope } from '../../src/auth/scopes'
import { AREAS } from '../lib/areas'
import { auth } from '../lib/auth-store'
import { useSession } from '../lib/use-auth'
import { ChangePasswordForm } from './ChangePasswordForm'
import { UserMenu } from './UserMenu'

export function AppLayout() {
  const session = useSession()
  const { t, i18n } = useLingui()
  const [navOpen, { toggle, close }] = useDisclosure(false)
  const matches = useMatches()
  const title = [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title
  const areas = Object.values(AREAS).filter((a) => session && hasScope(session.scope, a.scope))

  if (session?.must_change_password) return <ForcedPasswordChange />

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 220, breakpoint: 'md', collapsed: { mobile: !navOpen } }} padding="md">
      <AppShell.Header bg="var(--mes-header)">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={navOpen} onClick={toggle} hiddenFrom="md" size="sm" aria-label={t`Menu di navigazione`} />
            <Text fw={700} c="teal">
              progress
            </Text>
            <Title order={3} fw={500} data-testid="screen-title">
              {title ? i18n._(title) : ''}
            </Title>
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" bg="var(--mes-surface-1)">
        <Stack gap={4}>
          {areas.map((a) => (
            <NavLink key={a.id} component={Link} to={a.path} label={i18n._(a.title)} onClick={close} style={{ borderRadius: 8 }} />
          ))}
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  )
}

function ForcedPasswordChange() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={420} maw="100%">
        <Stack>
          <Title order={3}>
            <Trans>Cambia la password temporanea</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>La password che hai usato è temporanea: scegline una nuova per continuare.</Trans>
          </Text>
          <ChangePasswordForm onDone={() => {}} />
          <Button variant="subtle" color="gray" onClick={() => auth.logout()}>
            <Trans>Esci</Trans>
          </Button>
        </Stack>
      </Paper>
    </Center>
  )
}
