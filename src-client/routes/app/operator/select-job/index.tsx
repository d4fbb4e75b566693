import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { JobPicker } from './-picker'

/** The operator's queue in order (SPEC 2 select-job). */
export const Route = createFileRoute('/app/operator/select-job/')({
  component: QueuePage,
})

function QueuePage() {
  const search = Route.useSearch()
  return (
    <JobPicker
      from="queue"
      search={search}
      sections={(jobs) => [{ jobs: jobs.queue, more: jobs.queueMore, testId: 'queue', empty: <Trans>Nessun job nella tua coda.</Trans> }]}
    />
  )
}
