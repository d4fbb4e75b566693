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
  const [hours, setHours] = useState<number>(Math.floor(job.time_spent_ms / HOUR))
  const [minutes, setMinutes] = useState<number>(Math.floor((job.time_spent_ms % HOUR) / MINUTE))
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const what = `${job.work_order_code} · ${job.phase_name}`

  async function confirm() {
    setBusy(true)
    setFailure(null)
    try {
      const base = { job_key: job._key }
      if (action === 'update_progress') await trpcClient.jobs.update.mutate({ ...base, action, completed_qt: completed })
      else if (action === 'update_times') await trpcClient.jobs.update.mutate({ ...base, action, time_spent_ms: hours * HOUR + minutes * MINUTE })
      else await trpcClient.jobs.update.mutate({ ...base, action })
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
      notifySuccess(t`Job aggiornato`)
      onClose()
    } catch (e) {
      setFailure(errorMessage(toApiError(e)))
      setBusy(false)
    }
  }

  const invalid =
    (action === 'update_progress' && !(Number.isInteger(completed) && completed >= 0 && completed <= job.quantity)) ||
    (action === 'update_times' && !(Number.isInteger(hours) && hours >= 0 && Number.isInteger(minutes) && minutes >= 0 && minutes < 60))

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
            <NumberInput label={t`Ore`} min={0} allowDecimal={false} allowNegative={false} value={hours} onChange={(v) => setHours(Number(v) || 0)} data-autofocus />
            <NumberInput label={t`Minuti`} min={0} max={59} allowDecimal={false} allowNegative={false} value={minutes} onChange={(v) => setMinutes(Number(v) || 0)} />
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
