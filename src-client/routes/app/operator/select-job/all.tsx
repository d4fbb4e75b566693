import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { JobPicker } from './-picker'

/** Every job the operator may take: their queue and the unassigned ones where settings allow (SPEC 2 `all`). */
export const Route = createFileRoute('/app/operator/select-job/all')({
  component: AllJobsPage,
})

function AllJobsPage() {
  const search = Route.useSearch()
  return (
    <JobPicker
      from="all"
      search={search}
      sections={(jobs) => [
        { title: <Trans>Assegnati a te</Trans>, jobs: jobs.queue, more: jobs.queueMore, testId: 'queue', empty: <Trans>Nessun job nella tua coda.</Trans> },
        {
          title: <Trans>Non assegnati</Trans>,
          jobs: jobs.unassigned,
          more: jobs.unassignedMore,
          testId: 'unassigned',
          empty: <Trans>Nessun job non assegnato disponibile (o le impostazioni non consentono di prenderli).</Trans>,
        },
      ]}
    />
  )
}
