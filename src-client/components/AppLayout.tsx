import { Anchor, AppShell, Burger, Button, Center, Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, Outlet, useLocation, useMatches } from '@tanstack/react-router'
import { useState } from 'react'
import { hasScope } from '../../src/auth/scopes'
import { AREAS } from '../lib/areas'
import { auth } from '../lib/auth-store'
import { useSession } from '../lib/use-auth'
import { ChangePasswordForm } from './ChangePasswordForm'
import { ScanToOpen } from './scan/ScanToOpen'
import { UserMenu } from './UserMenu'

/** Below this width (tablets on the floor) the side navigation starts closed: the work gets the width. */
const DESKTOP = '(min-width: 1400px)'

export function AppLayout() {
  const session = useSession()
  const { t, i18n } = useLingui()
  const wide = useMediaQuery(DESKTOP, window.matchMedia(DESKTOP).matches, { getInitialValueInEffect: false })
  // null until the user opens or closes it: then their choice holds, whatever the width.
  const [navChoice, setNavChoice] = useState<boolean | null>(null)
  const matches = useMatches()
  const title = [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title
  const areas = Object.values(AREAS).filter((a) => session && hasScope(session.scope, a.scope))
  const pathname = useLocation({ select: (l) => l.pathname })
  const area = areas.find((a) => pathname === a.path || pathname.startsWith(`${a.path}/`))
  // A user of one area (every operator) has nothing to switch to: no navigation at all.
  const switchable = areas.length > 1
  const navOpen = switchable && (navChoice ?? wide)

  if (session?.must_change_password) return <ForcedPasswordChange />

  return (
    <AppShell header={{ height: 60 }} navbar={navOpen ? { width: 220, breakpoint: 'xs' } : undefined} padding="md">
      <AppShell.Header bg="var(--mes-header)">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            {switchable && (
              <Burger
                opened={navOpen}
                onClick={() => setNavChoice(!navOpen)}
                size="sm"
                aria-label={t`Menu di navigazione`}
                aria-expanded={navOpen}
                data-testid="nav-toggle"
              />
            )}
            <Text fw={700} c="teal">
              progress
            </Text>
            <Title order={3} fw={500} data-testid="screen-title">
              {/* The area's title leads back to its first screen (the way out of a work session for an operator). */}
              {title && area ? (
                <Anchor component={Link} to={area.path} inherit c="inherit" underline="never" data-testid="area-home">
                  {i18n._(title)}
                </Anchor>
              ) : title ? (
                i18n._(title)
              ) : (
                ''
              )}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <ScanToOpen />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      {navOpen && (
        <AppShell.Navbar p="xs" bg="var(--mes-surface-1)">
          <Stack gap={4}>
            {areas.map((a) => (
              // Below desktop widths the navigation closes once an area is chosen.
              <NavLink key={a.id} component={Link} to={a.path} label={i18n._(a.title)} onClick={() => !wide && setNavChoice(false)} style={{ borderRadius: 8 }} />
            ))}
          </Stack>
        </AppShell.Navbar>
      )}
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
