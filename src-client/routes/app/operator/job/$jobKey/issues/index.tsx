import { Trans } from '@lingui/react/macro'
import { Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { IssueCards } from '../../../../../../components/issues/IssueCards'
import { IssueForm, type IssueContextInput } from '../../../../../../components/issues/IssueForm'
import { useIssueAccess } from '../../../../../../components/issues/issue-access'
import { useWorkSession } from '../../../../../../components/operator/work-session-context'
import { toApiError } from '../../../../../../lib/api-error'
import { errorMessage } from '../../../../../../lib/error-messages'
import { trpc } from '../../../../../../lib/trpc'

/** SPEC 2: the job's issues, and a big button to report a problem from the work session. */
export const Route = createFileRoute('/app/operator/job/$jobKey/issues/')({
  component: JobIssues,
})

function JobIssues() {
  const { jobKey } = Route.useParams()
  const navigate = useNavigate()
  const access = useIssueAccess()
  const [reporting, setReporting] = useState(false)
  // Quality and the escalation sweep change these issues elsewhere: the tab always reads them again.
  const issues = useQuery({ ...trpc.issues.list.queryOptions({ job_key: jobKey, sort: 'opened_at', dir: 'desc', page_size: 50 }), staleTime: 0 })

  if (reporting) return <ReportProblem onClose={() => setReporting(false)} />
  return (
    <Stack gap="md" data-testid="issues-tab">
      {access.canCreate('job') && (
        <Button size="xl" h={64} color="red.8" onClick={() => setReporting(true)} data-testid="report-problem">
          <Trans>Segnala un problema</Trans>
        </Button>
      )}
      {issues.isPending ? (
        <Center p="lg">
          <Loader />
        </Center>
      ) : issues.isError ? (
        <Text c="red">{errorMessage(toApiError(issues.error))}</Text>
      ) : issues.data.rows.length === 0 ? (
        <Text c="dimmed" size="lg" ta="center" p="lg">
          <Trans>Nessuna segnalazione su questo job.</Trans>
        </Text>
      ) : (
        <IssueCards rows={issues.data.rows} onOpen={(r) => navigate({ to: '/app/operator/job/$jobKey/issues/$issueKey', params: { jobKey, issueKey: r._key } })} />
      )}
    </Stack>
  )
}

/**
 * The form opened on this job, on its open batch and on the step the operator is at (the first
 * step of the batch not done yet), so quality knows where the problem showed up.
 */
function ReportProblem({ onClose }: { onClose: () => void }) {
  const { jobKey, view } = useWorkSession()
  const batch = view.batch
  const step = batch ? [...batch.step_data].sort((a, b) => a.position - b.position).find((s) => !s.done) : undefined
  const stepTitle = step ? view.steps.find((s) => s._key === step._key)?.title : undefined
  const context: IssueContextInput = { job_key: jobKey, batch_key: batch?._key, step_key: step?._key }
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={3} mb={4}>
        <Trans>Segnala un problema</Trans>
      </Title>
      <Text c="dimmed" mb="md" data-testid="report-context">
        <Trans>
          OdL {view.work_order.code} · Fase {view.phase.position}: {view.phase.name}
        </Trans>
        {batch && (
          <>
            {' · '}
            <Trans>Lotto {batch.number}</Trans>
          </>
        )}
        {stepTitle && (
          <>
            {' · '}
            <Trans>Passo: {stepTitle}</Trans>
          </>
        )}
      </Text>
      <IssueForm context={context} touch onDone={onClose} onCancel={onClose} />
    </Paper>
  )
}
