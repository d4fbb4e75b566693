import { createFileRoute, redirect } from '@tanstack/react-router'
import { lastProductPage } from '../../../../../lib/product-memory'

// SPEC 2: a product opens on home, or on the tab the user viewed last (client-only last_page).
export const Route = createFileRoute('/app/library/product/$product_key/')({
  beforeLoad: ({ params }) => {
    throw redirect({ href: `/app/library/product/${params.product_key}/${lastProductPage(params.product_key)}`, replace: true })
  },
})
