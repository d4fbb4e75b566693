import { Trans } from '@lingui/react/macro'
import { Group } from '@mantine/core'
import { PrintButton } from './PrintButton'

/**
 * The phase view "prints" (SPEC 2) in the operator's work session: the phase's templates (and its
 * operation's) filled with this job and its open batch, one label per serial of the batch when
 * asked.
 */
export function JobPrints({ jobKey, phaseKey, batchKey }: { jobKey: string; phaseKey: string; batchKey?: string | null }) {
  return (
    <Group justify="flex-end" mb="xs">
      <PrintButton
        context="phase"
        contextKey={phaseKey}
        subject={{ job_key: jobKey, ...(batchKey ? { batch_key: batchKey } : {}) }}
        perSerial={Boolean(batchKey)}
        label={<Trans>Stampe della fase</Trans>}
        testId="phase-prints"
      />
    </Group>
  )
}
