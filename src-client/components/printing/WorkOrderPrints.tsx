import { Trans } from '@lingui/react/macro'
import { Group } from '@mantine/core'
import { PrintButton } from './PrintButton'

/**
 * The work order's job traveller: the template assigned to the settings label 'job_traveller',
 * filled with the work order (its QR preset "job_url" opens the first job in the operator area).
 */
export function WorkOrderPrints({ workOrderKey, jobKey }: { workOrderKey: string; jobKey?: string }) {
  return (
    <Group justify="flex-end" mb="xs">
      <PrintButton
        context="settings"
        contextKey="job_traveller"
        subject={{ work_order_key: workOrderKey, ...(jobKey ? { job_key: jobKey } : {}) }}
        label={<Trans>Foglio di lavorazione</Trans>}
        testId="work-order-prints"
      />
    </Group>
  )
}
