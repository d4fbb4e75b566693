import { createFileRoute, redirect } from '@tanstack/react-router'

/** SPEC 2: the operator area opens on the job selection, the first ready job preselected. */
export const Route = createFileRoute('/app/operator/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/operator/select-job', search: { job: 'first' }, replace: true })
  },
})
