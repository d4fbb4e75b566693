import { Trans } from '@lingui/react/macro'
import { Anchor } from '@mantine/core'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { IssueDetailView } from '../../../../components/issues/IssueDetailView'
import { lastIssuesSearch } from '../../../../components/issues/overview-search'

export const Route = createFileRoute('/app/quality/issues/$issueKey')({
  component: QualityIssue,
})

function QualityIssue() {
  const { issueKey } = Route.useParams()
  const navigate = useNavigate()
  const back = (
    <Anchor renderRoot={(p) => <Link {...p} to="/app/quality/issues" search={lastIssuesSearch()} />} size="sm" w="fit-content">
      ← <Trans>Segnalazioni</Trans>
    </Anchor>
  )
  const onDeleted = () => void navigate({ to: '/app/quality/issues', search: lastIssuesSearch() })
  return <IssueDetailView key={issueKey} issueKey={issueKey} back={back} onDeleted={onDeleted} />
}
