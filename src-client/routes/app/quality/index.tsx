import { createFileRoute, redirect } from '@tanstack/react-router'

// SPEC 2: the quality area opens on the issues overview.
export const Route = createFileRoute('/app/quality/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/quality/issues', replace: true })
  },
})
