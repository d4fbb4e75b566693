import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/app/admin/general/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/admin/general/company', replace: true })
  },
})
