import { createFileRoute } from '@tanstack/react-router'
import { AreaHome } from '../../../components/AreaHome'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/warehouse/')({
  component: () => <AreaHome area={AREAS.warehouse} />,
})
