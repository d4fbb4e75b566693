import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { JobReasonInput } from './JobReasonInput'

/**
 * Giving a started job (paused, its batch maybe half done) to another operator, or to nobody:
 * production confirms and may say why; both operators read it on the job (issue 26). A job
 * nobody has started yet changes operator at once, without this dialog.
 */
export function ReassignDialog({
  job,
  to,
  toName,
  onAssign,
  onClose,
}: {
  job: JobRow
  to: string | null
  toName: string | null
  onAssign: (reason: string | undefined) => Promise<void>
  onClose: () => void
}) {
  const { t } = useLingui()
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const from = job.operator_name ?? job.operator_username ?? t`nessuno`
  const what = `${job.work_order_code} · ${job.phase_name}`
  const target = to === null ? t`nessuno` : (toName ?? to)

  async function confirm() {
    setBusy(true)
    setFailure(null)
    try {
      await onAssign(reason.trim() || undefined)
      onClose()
    } catch (e) {
      setFailure(errorMessage(toApiError(e)))
      setBusy(false)
    }
  }

  return (
    <Modal opened onClose={onClose} centered title={<Text fw={600}>{t`Riassegna il job`}</Text>}>
      <Stack>
        <Text size="sm" c="dimmed">
          {what}
        </Text>
        <Text size="sm">
          <Trans>
            Il job è già iniziato: passa da {from} a {target}. I pezzi in lavorazione restano nel lotto aperto.
          </Trans>
        </Text>
        <JobReasonInput value={reason} onChange={setReason} placeholder={t`es. fine turno`} autoFocus />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={confirm} loading={busy} data-testid="reassign-confirm">
            <Trans>Conferma</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
