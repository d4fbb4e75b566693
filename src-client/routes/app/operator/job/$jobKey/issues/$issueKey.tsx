import { Trans } from '@lingui/react/macro'
import { Button } from '@mantine/core'
import { createFileRoute, Link } from '@tanstack/react-router'
import { IssueDetailView } from '../../../../../../components/issues/IssueDetailView'

/** One issue of the job inside the work session (touch-sized; no links out of the session). */
export const Route = createFileRoute('/app/operator/job/$jobKey/issues/$issueKey')({
  component: JobIssue,
})

function JobIssue() {
  const { jobKey, issueKey } = Route.useParams()
  const back = (
    <Button
      renderRoot={(props) => <Link {...props} to="/app/operator/job/$jobKey/issues" params={{ jobKey }} />}
      variant="default"
      size="lg"
      w="fit-content"
      data-testid="back-to-issues"
    >
      ← <Trans>Torna alle segnalazioni</Trans>
    </Button>
  )
  return <IssueDetailView key={issueKey} issueKey={issueKey} back={back} touch />
}
