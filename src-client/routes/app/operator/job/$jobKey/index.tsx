import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/app/operator/job/$jobKey/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/app/operator/job/$jobKey/steps', params, replace: true })
  },
})
