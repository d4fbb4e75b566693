import { createFileRoute } from '@tanstack/react-router'
import { WorkOrderSerialsView } from '../../../../../components/serials/WorkOrderSerialsView'

export const Route = createFileRoute('/app/production/workorder/$wo_key/traceability')({
  component: TraceabilityTab,
})

function TraceabilityTab() {
  const { wo_key } = Route.useParams()
  return <WorkOrderSerialsView woKey={wo_key} />
}
