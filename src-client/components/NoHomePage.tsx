import { Alert, Center } from '@mantine/core'
import { Trans } from '@lingui/react/macro'

/** SPEC 2: no destination matches the user's permissions. */
export function NoHomePage() {
  return (
    <Center mih="60vh">
      <Alert color="red" title={<Trans>Nessuna pagina iniziale</Trans>} maw={520}>
        <Trans>
          I tuoi permessi non danno accesso a nessuna area dell'applicazione. Chiedi a un amministratore di assegnarti
          un permesso.
        </Trans>
      </Alert>
    </Center>
  )
}
