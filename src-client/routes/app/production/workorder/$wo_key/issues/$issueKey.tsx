import { Trans } from '@lingui/react/macro'
import { Anchor } from '@mantine/core'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { IssueDetailView } from '../../../../../../components/issues/IssueDetailView'

export const Route = createFileRoute('/app/production/workorder/$wo_key/issues/$issueKey')({
  component: WorkOrderIssue,
})

function WorkOrderIssue() {
  const { wo_key, issueKey } = Route.useParams()
  const navigate = useNavigate()
  const back = (
    <Anchor renderRoot={(p) => <Link {...p} to="/app/production/workorder/$wo_key/issues" params={{ wo_key }} />} size="sm" w="fit-content">
      ← <Trans>Segnalazioni dell'ordine di lavoro</Trans>
    </Anchor>
  )
  const onDeleted = () => void navigate({ to: '/app/production/workorder/$wo_key/issues', params: { wo_key } })
  return <IssueDetailView key={issueKey} issueKey={issueKey} back={back} onDeleted={onDeleted} />
}
