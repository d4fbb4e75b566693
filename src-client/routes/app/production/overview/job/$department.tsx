import { createFileRoute } from '@tanstack/react-router'
import { JobListPage } from './-job-list-page'
import { validateJobListSearch } from './-job-list-search'

// SPEC 2: the job list of one department (its key).
export const Route = createFileRoute('/app/production/overview/job/$department')({
  validateSearch: validateJobListSearch,
  component: DepartmentJobs,
})

function DepartmentJobs() {
  const { department } = Route.useParams()
  return <JobListPage departmentKey={department} search={Route.useSearch()} />
}
