import { createFileRoute, redirect } from '@tanstack/react-router'

/** SPEC 2: warehouse redirects to inventory. */
export const Route = createFileRoute('/app/warehouse/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/warehouse/inventory', replace: true })
  },
})
