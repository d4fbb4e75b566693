import { Button, Center, Stack, Text, Title } from '@mantine/core'
import { Trans } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'

export function NotFound() {
  return (
    <Center mih="70vh">
      <Stack align="center" gap="sm">
        <Title order={1}>404</Title>
        <Text size="lg">
          <Trans>La pagina richiesta non esiste.</Trans>
        </Text>
        <Button component={Link} to="/">
          <Trans>Torna alla pagina iniziale</Trans>
        </Button>
      </Stack>
    </Center>
  )
}
