import { createFileRoute, redirect } from '@tanstack/react-router'

// SPEC 2: a work order opens on its job list.
export const Route = createFileRoute('/app/production/workorder/$wo_key/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/app/production/workorder/$wo_key/job-list', params, replace: true })
  },
})
