import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { JobCorrection } from '../../../src/domains/jobs/rules'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import { type NumberRules, readNumberText } from '../../../src/i18n/number-text'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { NumberTextInput, toNumberText } from '../NumberTextInput'
import { ActionSignatureFields, useActionSignature } from '../signatures/ActionSignature'
import { CORRECTION_LABELS } from './job-labels'
import { JobReasonInput } from './JobReasonInput'

const HOUR = 3_600_000
const MINUTE = 60_000
const WHOLE: NumberRules = { min: 0, integer: true }

/** Confirms one production correction (SPEC 4), with its value where it takes one. */
export function CorrectionDialog({ job, action, onClose }: { job: JobRow; action: JobCorrection; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  // As typed (NumberTextInput): never clamped, zeroed or made positive behind the person's back.
  const [completed, setCompleted] = useState(() => toNumberText(job.completed_qt))
  const [hours, setHours] = useState(() => toNumberText(Math.floor(job.time_spent_ms / HOUR)))
  const [minutes, setMinutes] = useState(() => toNumberText(Math.floor((job.time_spent_ms % HOUR) / MINUTE)))
  const completedRules: NumberRules = { min: 0, max: job.quantity, integer: true }
  const pieces = readNumberText(completed, { ...completedRules, required: true })
  const hoursRead = readNumberText(hours, { ...WHOLE, required: true })
  const minutesRead = readNumberText(minutes, { ...WHOLE, required: true })
  // Why production pauses the job: the operator reads it on the job with who paused it.
  const [reason, setReason] = useState('')
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const what = `${job.work_order_code} · ${job.phase_name}`
  // The four corrections of recorded data are signed when the settings say so; pausing never is.
  const signature = useActionSignature('job_correction', action !== 'pause')

  async function confirm() {
    setBusy(true)
    setFailure(null)
    try {
      const base = { job_key: job._key, signature: signature.input() }
      if (action === 'update_progress') await trpcClient.jobs.update.mutate({ ...base, action, completed_qt: pieces.ok ? pieces.value! : Number.NaN })
      else if (action === 'update_times') await trpcClient.jobs.update.mutate({ ...base, action, time_spent_ms: (hoursRead.ok ? hoursRead.value! : Number.NaN) * HOUR + (minutesRead.ok ? minutesRead.value! : Number.NaN) * MINUTE })
      else if (action === 'pause') await trpcClient.jobs.update.mutate({ job_key: job._key, action, reason: reason.trim() || undefined })
      else await trpcClient.jobs.update.mutate({ ...base, action })
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
      notifySuccess(t`Job aggiornato`)
      onClose()
    } catch (e) {
      if (!signature.refused(e)) setFailure(errorMessage(toApiError(e)))
      setBusy(false)
    }
  }

  // Why Conferma is off, said next to the field (text that is not a whole number says so itself).
  const hoursError = !hoursRead.ok ? t`Scrivi le ore (0 se nessuna)` : undefined
  const typedMinutes = minutesRead.ok ? minutesRead.value! : 0
  const minutesError = !minutesRead.ok
    ? t`Scrivi i minuti (0 se nessuno)`
    : typedMinutes > 59
      ? t`Al massimo 59 minuti: ${typedMinutes} min sono ${Math.floor(typedMinutes / 60)} h ${typedMinutes % 60} min, scrivi le ore nel campo Ore`
      : undefined
  const invalid =
    (action === 'update_progress' && !pieces.ok) ||
    (action === 'update_times' && (hoursError !== undefined || minutesError !== undefined)) ||
    !signature.ready

  return (
    <Modal opened onClose={onClose} centered size={signature.meaning ? 'lg' : undefined} title={<Text fw={600}>{i18n._(CORRECTION_LABELS[action]).replace('…', '')}</Text>}>
      <Stack>
        <Text size="sm" c="dimmed">
          {what}
        </Text>
        {action === 'pause' && (
          <>
            <Text size="sm">
              <Trans>La sessione di lavoro dell'operatore viene chiusa e il job passa in pausa. I pezzi in lavorazione restano nel lotto aperto.</Trans>
            </Text>
            <JobReasonInput value={reason} onChange={setReason} placeholder={t`es. cambio stampo`} autoFocus />
          </>
        )}
        {action === 'reset_progress' && (
          <Text size="sm">
            <Trans>
              I {job.completed_qt} pezzi fatti tornano da fare e il materiale torna disponibile alla fase. I pezzi già rilasciati alla fase successiva vengono ripresi, se non sono già stati lavorati.
            </Trans>
          </Text>
        )}
        {action === 'cancel_active_pieces' && (
          <Text size="sm">
            <Trans>Il lotto aperto viene annullato: i suoi {job.active_qt} pezzi tornano da fare e il materiale torna disponibile alla fase.</Trans>
          </Text>
        )}
        {action === 'update_progress' && (
          <NumberTextInput
            label={t`Pezzi fatti`}
            description={t`Da 0 a ${job.quantity}. Il materiale della fase e i rilasci alla fase successiva seguono la correzione.`}
            {...completedRules}
            value={completed}
            onChange={setCompleted}
            data-autofocus
          />
        )}
        {action === 'update_times' && (
          <Group grow align="flex-start">
            <NumberTextInput
              label={t`Ore`}
              {...WHOLE}
              value={hours}
              onChange={setHours}
              error={hoursError}
              data-autofocus
              data-testid="correct-hours"
            />
            <NumberTextInput
              label={t`Minuti`}
              {...WHOLE}
              value={minutes}
              onChange={setMinutes}
              error={minutesError}
              data-testid="correct-minutes"
            />
          </Group>
        )}
        <ActionSignatureFields state={signature} what={`${i18n._(CORRECTION_LABELS[action]).replace('…', '')}: ${what}`} />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color={action === 'reset_progress' || action === 'cancel_active_pieces' ? 'red' : undefined} onClick={confirm} loading={busy} disabled={invalid}>
            <Trans>Conferma</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
