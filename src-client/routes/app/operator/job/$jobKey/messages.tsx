import { Trans } from '@lingui/react/macro'
import { Paper, Text, Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'

/** Messages in context 'job' (SPEC 2): the thread comes with the quality area. */
export const Route = createFileRoute('/app/operator/job/$jobKey/messages')({
  component: () => (
    <Paper withBorder p="lg" data-testid="messages-tab">
      <Title order={4} mb="xs">
        <Trans>Messaggi del job</Trans>
      </Title>
      <Text c="dimmed" size="lg">
        <Trans>I messaggi su questo job arriveranno con l'area Qualità: qui comparirà la conversazione del job.</Trans>
      </Text>
    </Paper>
  ),
})
