import { Trans } from '@lingui/react/macro'
import { Paper, Text, Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'

/** Issues of the job (SPEC 2): listed and opened here once the quality area exists. */
export const Route = createFileRoute('/app/operator/job/$jobKey/issues/')({
  component: () => (
    <Paper withBorder p="lg" data-testid="issues-tab">
      <Title order={4} mb="xs">
        <Trans>Segnalazioni del job</Trans>
      </Title>
      <Text c="dimmed" size="lg">
        <Trans>Le segnalazioni di qualità di questo job arriveranno con l'area Qualità: qui si potranno vedere e aprire.</Trans>
      </Text>
    </Paper>
  ),
})
