import { Avatar, Button, Modal, Text } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { HOME_PAGES, type HomePageName, hasScope } from '../../src/auth/scopes'
import type { Preferences } from '../../src/domains/session/schemas'
import { auth } from '../lib/auth-store'
import { AREAS } from '../lib/areas'
import { notifyError, notifySuccess } from '../lib/notify'
import { trpc, trpcClient } from '../lib/trpc'
import { useSession } from '../lib/use-auth'
import { ChangePasswordForm } from './ChangePasswordForm'
import { useFloating } from './floating/lazy'
import { SetPinForm } from './SetPinForm'
import { initialsOf } from '../lib/user-names'

const AREA_OF_HOME: Record<HomePageName, keyof typeof AREAS> = {
  operatorRoot: 'operator',
  productionRoot: 'production',
  libraryRoot: 'library',
  adminPanel: 'admin',
  qualityRoot: 'quality',
  traceabilityRoot: 'traceability',
  reportRoot: 'report',
  warehouseRoot: 'warehouse',
  auditRoot: 'audit',
}

async function savePreferences(userKey: string, preferences: Partial<Preferences>) {
  try {
    await trpcClient.users.patch.mutate({ key: userKey, patch: { preferences } })
    await auth.refreshSession()
  } catch (e) {
    notifyError(e)
  }
}

/** Language, theme, homepage, password, signing PIN (where the plant allows it) and sign-out (SPEC 2 and 9). */
export function UserMenu() {
  const { t, i18n } = useLingui()
  const session = useSession()
  const [passwordOpen, setPasswordOpen] = useState(false)
  const [pinOpen, setPinOpen] = useState(false)
  // The menu (Mantine Menu, @floating-ui) loads on the first hover or press of its button
  // (./floating/lazy.tsx); a press before it is there opens it as soon as it is. Not on focus:
  // the button is made again inside the menu once it loads, and a focus moved by Tab would be lost.
  const [wanted, setWanted] = useState(false)
  const [pressed, setPressed] = useState(false)
  const floating = useFloating(wanted)
  // On pointerdown, not only on click: should the menu arrive between the press and the release,
  // the release lands on the new button and makes no click; it opens by itself (defaultOpened).
  const press = () => {
    setWanted(true)
    setPressed(true)
  }
  // Read when the menu is wanted (its PIN entry), not with the first screen: one request less there.
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), enabled: !!session && wanted, staleTime: 60_000 })
  if (!session) return null
  const pinSigning = settings.data?.pin_signing === true
  const { preferences: prefs } = session
  const homes = HOME_PAGES.filter((h) => hasScope(session.scope, h.scope))
  const check = (on: boolean) => (on ? '✓ ' : '')
  const button = (
    <Button
      variant="subtle"
      size="md"
      leftSection={<Avatar size="sm" color="teal">{initialsOf(session)}</Avatar>}
      data-testid="user-menu"
      {...(floating ? {} : { onMouseEnter: () => setWanted(true), onPointerDown: press, onClick: press })}
    >
      <Text size="sm" visibleFrom="sm">
        {session.name || session.username}
      </Text>
    </Button>
  )
  const Menu = floating?.Menu

  return (
    <>
      {!Menu && button}
      {Menu && (
        <Menu shadow="md" width={260} position="bottom-end" defaultOpened={pressed}>
          <Menu.Target>{button}</Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t`Lingua`}</Menu.Label>
            <Menu.Item onClick={() => savePreferences(session.user_key, { locale: 'it' })}>{check(i18n.locale === 'it')}Italiano</Menu.Item>
            <Menu.Item onClick={() => savePreferences(session.user_key, { locale: 'en' })}>{check(i18n.locale === 'en')}English</Menu.Item>
            <Menu.Divider />
            <Menu.Label>{t`Tema`}</Menu.Label>
            <Menu.Item onClick={() => savePreferences(session.user_key, { theme: 'light' })}>{check(prefs.theme === 'light')}{t`Chiaro`}</Menu.Item>
            <Menu.Item onClick={() => savePreferences(session.user_key, { theme: 'dark' })}>{check(prefs.theme === 'dark')}{t`Scuro`}</Menu.Item>
            <Menu.Divider />
            <Menu.Label>{t`Pagina iniziale`}</Menu.Label>
            <Menu.Item onClick={() => savePreferences(session.user_key, { home_page: null })}>{check(!prefs.home_page)}{t`Automatica`}</Menu.Item>
            {homes.map((h) => (
              <Menu.Item key={h.name} onClick={() => savePreferences(session.user_key, { home_page: h.name })}>
                {check(prefs.home_page === h.name)}
                {i18n._(AREAS[AREA_OF_HOME[h.name]].title)}
              </Menu.Item>
            ))}
            <Menu.Divider />
            <Menu.Item onClick={() => setPasswordOpen(true)}>{t`Cambia password`}</Menu.Item>
            {pinSigning && <Menu.Item onClick={() => setPinOpen(true)}>{session.has_pin ? t`Cambia PIN di firma` : t`Imposta PIN di firma`}</Menu.Item>}
            <Menu.Item color="red" onClick={() => auth.logout()}>
              {t`Esci`}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <Modal opened={passwordOpen} onClose={() => setPasswordOpen(false)} title={<Trans>Cambia password</Trans>}>
        <ChangePasswordForm onDone={() => setPasswordOpen(false)} />
      </Modal>
      {settings.data && (
        <Modal opened={pinOpen} onClose={() => setPinOpen(false)} title={<Trans>PIN di firma</Trans>}>
          <SetPinForm
            minLength={settings.data.pin_min_length}
            onDone={() => {
              setPinOpen(false)
              notifySuccess(t`PIN di firma salvato`)
            }}
          />
        </Modal>
      )}
    </>
  )
}
