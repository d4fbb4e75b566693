import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { type Keepable, useWorkSession } from '../../../../../components/operator/work-session-context'
import { useOfflineQueue } from '../../../../../offline/queue'
import { useJobRuntime } from '../../../../../lib/heartbeat'
import { trpcClient } from '../../../../../lib/trpc'

/** No open batch: start, resume, open the next batch, or no material for the next piece. */
export function NoBatch() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const { view, canWork, busy, act, jobKey, state } = useWorkSession()
  const { pending } = useOfflineQueue()
  const { online } = useJobRuntime()
  const keptPause = (reason: 'no_material' | 'end_session'): Keepable => ({ write: { kind: 'pause', input: { job_key: jobKey, reason } }, label: {} })
  if (state === 'closed') return null
  if (canWork && pending.some((w) => w.job_key === jobKey)) {
    // The batch was completed on the device: what comes next (a new batch, no material) is the server's to say.
    return (
      <Paper withBorder p="lg" data-testid="batch-kept">
        <Title order={3} mb="sm">
          <Trans>Lotto completato sul dispositivo</Trans>
        </Title>
        <Text size="lg">
          <Trans>Il prossimo lotto si apre quando torna la connessione e le operazioni in attesa sono state inviate.</Trans>
        </Text>
      </Paper>
    )
  }
  if (!canWork) {
    // Read-only (the banner above says why): the steps the job will go through.
    return (
      <Paper withBorder p="lg" data-testid="no-batch">
        <Title order={3} mb="sm">
          <Trans>Passi del job</Trans>
        </Title>
        {view.steps.length === 0 ? (
          <Text c="dimmed">
            <Trans>Questo job non ha passi.</Trans>
          </Text>
        ) : (
          <Stack gap={6} data-testid="steps-preview">
            {view.steps.map((s, i) => (
              <Text key={s._key} size="lg">
                {i + 1}. {s.title || (s.type === 'form' ? t`Modulo` : t`Istruzione`)}
                <Text span c="dimmed" size="sm">
                  {' · '}
                  {s.type === 'form' ? <Trans>Modulo</Trans> : <Trans>Istruzione</Trans>}
                </Text>
              </Text>
            ))}
          </Stack>
        )}
      </Paper>
    )
  }
  if (view.can.new_batch) {
    return (
      <Paper withBorder p="lg" data-testid="await-new-batch">
        <Stack align="flex-start">
          <Title order={3}>
            <Trans>Lotto completato</Trans>
          </Title>
          <Text size="lg">
            <Trans>Materiale disponibile: {view.material.available_qt} pz. Apri il prossimo lotto per continuare.</Trans>
          </Text>
          <Button
            size="xl"
            h={60}
            color="green.8"
            loading={busy}
            // Offline it is refused on screen, never kept: the server makes the batch and its pieces (docs/offline.md).
            disabled={!online}
            onClick={() => act(`new-batch:${jobKey}`, (idempotency_key) => trpcClient.execution.newBatch.mutate({ job_key: jobKey, idempotency_key }))}
            data-testid="new-batch"
          >
            <Trans>Apri nuovo lotto</Trans>
          </Button>
          {!online && (
            <Text size="md" c="red.8" fw={600} data-testid="new-batch-offline-reason">
              <Trans>Offline: il nuovo lotto lo apre il server, quando torna la connessione.</Trans>
            </Text>
          )}
        </Stack>
      </Paper>
    )
  }
  return (
    <Paper withBorder p="lg" data-testid="no-material">
      <Stack align="flex-start">
        <Title order={3}>
          <Trans>Materiale esaurito</Trans>
        </Title>
        <Text size="lg">
          <Trans>Non c'è materiale per il prossimo pezzo.</Trans>
        </Text>
        <Group>
          <Button
            size="xl"
            h={60}
            color="yellow.4"
            c="black"
            loading={busy}
            onClick={() => act(`pause:${jobKey}:no_material`, (k) => trpcClient.execution.pause.mutate({ job_key: jobKey, idempotency_key: k, reason: 'no_material' }), { keepable: keptPause('no_material') })}
          >
            <Trans>Metti in pausa il job</Trans>
          </Button>
          <Button
            size="xl"
            h={60}
            variant="default"
            disabled={busy}
            onClick={async () => {
              const out = await act(
                `pause:${jobKey}:end_session`,
                (k) => trpcClient.execution.pause.mutate({ job_key: jobKey, idempotency_key: k, reason: 'end_session' }),
                { keepable: keptPause('end_session') },
              )
              if (out) void navigate({ to: '/app/operator/select-job', search: { job: 'first' } })
            }}
          >
            <Trans>Termina la sessione</Trans>
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t`Il job riprenderà quando la fase precedente rilascerà altri pezzi.`}
        </Text>
      </Stack>
    </Paper>
  )
}
