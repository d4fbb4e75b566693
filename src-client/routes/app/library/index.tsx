import { createFileRoute } from '@tanstack/react-router'
import { AreaHome } from '../../../components/AreaHome'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/library/')({
  component: () => <AreaHome area={AREAS.library} />,
})
