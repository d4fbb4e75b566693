import { createFileRoute } from '@tanstack/react-router'
import { AreaHome } from '../../../components/AreaHome'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/traceability/')({
  component: () => <AreaHome area={AREAS.traceability} />,
})
