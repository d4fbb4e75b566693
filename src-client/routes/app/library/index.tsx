import { createFileRoute, redirect } from '@tanstack/react-router'

// The library opens on the product list.
export const Route = createFileRoute('/app/library/')({
  beforeLoad: () => {
    throw redirect({ to: '/app/library/product', replace: true })
  },
})
