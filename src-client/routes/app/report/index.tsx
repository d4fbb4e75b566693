import { createFileRoute, redirect } from '@tanstack/react-router'

// Rapporti opens on the production report.
export const Route = createFileRoute('/app/report/')({
  beforeLoad: () => {
    throw redirect({ href: '/app/report/production', replace: true })
  },
})
