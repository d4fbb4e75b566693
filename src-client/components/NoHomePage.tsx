import { Alert, Anchor, Center, List, Stack, Text } from '@mantine/core'
import { useLingui } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { hasScope } from '../../src/auth/scopes'
import { AREAS } from '../lib/areas'
import { useSession } from '../lib/use-auth'

/**
 * SPEC 2: no homepage destination matches the user's permissions (e.g. warehouse only, which has
 * no named home). The areas the user may still open are offered.
 */
export function NoHomePage() {
  const session = useSession()
  const { i18n } = useLingui()
  const areas = Object.values(AREAS).filter((a) => session && hasScope(session.scope, a.scope))
  return (
    <Center mih="60vh">
      <Alert color="orange" title={<Trans>Nessuna pagina iniziale</Trans>} maw={560}>
        {areas.length === 0 ? (
          <Trans>
            I tuoi permessi non danno accesso a nessuna area dell'applicazione. Chiedi a un amministratore di assegnarti
            un permesso.
          </Trans>
        ) : (
          <Stack gap="xs">
            <Text size="sm">
              <Trans>Per i tuoi permessi non è prevista una pagina iniziale. Apri una delle tue aree:</Trans>
            </Text>
            <List>
              {areas.map((a) => (
                <List.Item key={a.id}>
                  <Anchor component={Link} to={a.path}>
                    {i18n._(a.title)}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Alert>
    </Center>
  )
}
