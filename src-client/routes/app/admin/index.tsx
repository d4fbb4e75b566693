import { createFileRoute, redirect } from '@tanstack/react-router'

// Admin opens on the company settings.
export const Route = createFileRoute('/app/admin/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/admin/general/company', replace: true })
  },
})
