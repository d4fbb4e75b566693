import { createFileRoute, redirect } from '@tanstack/react-router'

// Rapporti opens on the production report, keeping any query (a bookmarked period or filter).
export const Route = createFileRoute('/app/report/')({
  beforeLoad: ({ location }) => {
    throw redirect({ href: `/app/report/production${location.searchStr}`, replace: true })
  },
})
