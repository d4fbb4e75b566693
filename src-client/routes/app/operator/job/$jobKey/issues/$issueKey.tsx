import { Trans } from '@lingui/react/macro'
import { Button, Paper, Text, Title } from '@mantine/core'
import { createFileRoute, Link } from '@tanstack/react-router'

/** One issue of the job (SPEC 2 issues/:issueKey): filled by the quality area. */
export const Route = createFileRoute('/app/operator/job/$jobKey/issues/$issueKey')({
  component: IssueDetail,
})

function IssueDetail() {
  const { jobKey, issueKey } = Route.useParams()
  return (
    <Paper withBorder p="lg" data-testid="issue-detail">
      <Title order={4} mb="xs">
        <Trans>Segnalazione {issueKey}</Trans>
      </Title>
      <Text c="dimmed" size="lg" mb="md">
        <Trans>Il dettaglio delle segnalazioni arriverà con l'area Qualità.</Trans>
      </Text>
      <Button renderRoot={(props) => <Link {...props} to="/app/operator/job/$jobKey/issues" params={{ jobKey }} />} variant="default" size="lg">
        <Trans>Torna alle segnalazioni</Trans>
      </Button>
    </Paper>
  )
}
