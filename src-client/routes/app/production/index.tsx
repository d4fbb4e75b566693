import { createFileRoute, redirect } from '@tanstack/react-router'

// SPEC 2: production opens on the work order list.
export const Route = createFileRoute('/app/production/')({
  beforeLoad: () => {
    throw redirect({ href: '/app/production/overview/workorder', replace: true })
  },
})
