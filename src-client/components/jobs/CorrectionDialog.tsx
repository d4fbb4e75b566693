import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { JobCorrection } from '../../../src/domains/jobs/rules'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { CORRECTION_LABELS } from './job-labels'

const HOUR = 3_600_000
const MINUTE = 60_000

/** Confirms one production correction (SPEC 4), with its value where it takes one. */
export function CorrectionDialog({ job, action, onClose }: { job: JobRow; action: JobCorrection; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const [completed, setCompleted] = useState<number>(job.completed_qt)
  // As typed ('' = empty): never clamped or zeroed behind the person's back.
  const [hours, setHours] = useState<number | string>(Math.floor(job.time_spent_ms / HOUR))
  const [minutes, setMinutes] = useState<number | string>(Math.floor((job.time_spent_ms % HOUR) / MINUTE))
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const what = `${job.work_order_code} · ${job.phase_name}`

  async function confirm() {
    setBusy(true)
    setFailure(null)
    try {
      const base = { job_key: job._key }
      if (action === 'update_progress') await trpcClient.jobs.update.mutate({ ...base, action, completed_qt: completed })
      else if (action === 'update_times') await trpcClient.jobs.update.mutate({ ...base, action, time_spent_ms: Number(hours) * HOUR + Number(minutes) * MINUTE })
      else await trpcClient.jobs.update.mutate({ ...base, action })
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
      notifySuccess(t`Job aggiornato`)
      onClose()
    } catch (e) {
      setFailure(errorMessage(toApiError(e)))
      setBusy(false)
    }
  }

  // Why Conferma is off, said next to the field.
  const hoursError = hours === '' || typeof hours !== 'number' ? t`Scrivi le ore (0 se nessuna)` : undefined
  const minutesError =
    minutes === '' || typeof minutes !== 'number'
      ? t`Scrivi i minuti (0 se nessuno)`
      : minutes > 59
        ? t`Al massimo 59 minuti: ${minutes} min sono ${Math.floor(minutes / 60)} h ${minutes % 60} min, scrivi le ore nel campo Ore`
        : undefined
  const invalid =
    (action === 'update_progress' && !(Number.isInteger(completed) && completed >= 0 && completed <= job.quantity)) ||
    (action === 'update_times' && (hoursError !== undefined || minutesError !== undefined))

  return (
    <Modal opened onClose={onClose} centered title={<Text fw={600}>{i18n._(CORRECTION_LABELS[action]).replace('…', '')}</Text>}>
      <Stack>
        <Text size="sm" c="dimmed">
          {what}
        </Text>
        {action === 'pause' && (
          <Text size="sm">
            <Trans>La sessione di lavoro dell'operatore viene chiusa e il job passa in pausa. I pezzi in lavorazione restano nel lotto aperto.</Trans>
          </Text>
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
          <NumberInput
            label={t`Pezzi fatti`}
            description={t`Da 0 a ${job.quantity}. Il materiale della fase e i rilasci alla fase successiva seguono la correzione.`}
            min={0}
            max={job.quantity}
            allowDecimal={false}
            allowNegative={false}
            value={completed}
            onChange={(v) => setCompleted(typeof v === 'number' ? v : Number(v))}
            data-autofocus
          />
        )}
        {action === 'update_times' && (
          <Group grow align="flex-start">
            <NumberInput
              label={t`Ore`}
              min={0}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              value={hours}
              onChange={setHours}
              error={hoursError}
              data-autofocus
              data-testid="correct-hours"
            />
            <NumberInput
              label={t`Minuti`}
              min={0}
              max={59}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              value={minutes}
              onChange={setMinutes}
              error={minutesError}
              data-testid="correct-minutes"
            />
          </Group>
        )}
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
