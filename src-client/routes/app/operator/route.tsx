import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'
import { OfflineQueuePanel } from '../../../offline/OfflineQueuePanel'

export const Route = createFileRoute('/app/operator')({
  staticData: { scope: AREAS.operator.scope, title: AREAS.operator.title },
  component: OperatorArea,
})

/** Every operator screen says what waits on the device and what the server refused (issue 24). */
function OperatorArea() {
  return (
    <>
      <OfflineQueuePanel />
      <Outlet />
    </>
  )
}
