import { createFileRoute } from '@tanstack/react-router'
import { JobListPage } from './-job-list-page'
import { validateJobListSearch } from './-job-list-search'

// SPEC 2: the job list, every department.
export const Route = createFileRoute('/app/production/overview/job/')({
  validateSearch: validateJobListSearch,
  component: AllJobs,
})

function AllJobs() {
  return <JobListPage search={Route.useSearch()} />
}
