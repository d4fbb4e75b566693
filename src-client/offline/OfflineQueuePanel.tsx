import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { formatDateTime } from '../../src/i18n/format'
import { errorMessage } from '../lib/error-messages'
import { useJobRuntime } from '../lib/heartbeat'
import { offlineQueue, refusalOf, useOfflineQueue } from './queue'
import type { QueuedWrite } from './writes'

/**
 * On every operator screen: how many writes wait on the device ("Offline: 3 operazioni in
 * attesa"), each write the server refused, with its reason, until the operator has read it, and
 * each one it accepted, until the list is closed: every kept write is accounted for, item by item.
 */
export function OfflineQueuePanel() {
  const { t } = useLingui()
  const { pending, refused, sent, sending } = useOfflineQueue()
  const { online } = useJobRuntime()
  if (pending.length === 0 && refused.length === 0 && sent.length === 0) return null
  const n = pending.length
  return (
    <Stack gap="xs" mb="xs">
      {n > 0 && (
        <Alert color={online ? 'blue' : 'orange'} variant="light" data-testid="offline-queue" data-pending={n}>
          <Text size="md" fw={600}>
            {!online
              ? plural(n, { one: 'Offline: # operazione in attesa', other: 'Offline: # operazioni in attesa' })
              : sending
                ? plural(n, { one: 'Invio in corso: # operazione in attesa', other: 'Invio in corso: # operazioni in attesa' })
                : plural(n, { one: '# operazione in attesa di invio', other: '# operazioni in attesa di invio' })}
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>Restano su questo dispositivo anche se la pagina si ricarica; sono inviate in ordine appena il server risponde.</Trans>
          </Text>
        </Alert>
      )}
      {refused.length > 0 && (
        <Alert color="red" variant="light" title={t`Operazioni rifiutate dal server`} data-testid="refused-writes">
          <Stack gap="xs">
            {refused.map((r) => (
              <Group key={r.seq} justify="space-between" wrap="nowrap" data-testid="refused-write" data-code={r.code}>
                <div>
                  <Text size="md" fw={600}>
                    <WriteDescription write={r} /> <Text span size="sm" c="dimmed">· {formatDateTime(r.made_at)}</Text>
                  </Text>
                  <Text size="md" data-testid="refused-reason">
                    {errorMessage(refusalOf(r))}
                  </Text>
                </div>
                <Button variant="default" size="md" onClick={() => void offlineQueue.acknowledge(r.seq!)} data-testid="refused-ack">
                  <Trans>Preso visione</Trans>
                </Button>
              </Group>
            ))}
          </Stack>
        </Alert>
      )}
      {sent.length > 0 && (
        <Alert color="green" variant="light" title={t`Operazioni salvate sul dispositivo e accettate dal server`} data-testid="sent-writes">
          <Group justify="space-between" align="flex-end" wrap="nowrap">
            <Stack gap={2}>
              {sent.map((w) => (
                <Text key={w.seq} size="md" data-testid="sent-write" data-kind={w.kind}>
                  <WriteDescription write={w} /> <Text span size="sm" c="dimmed">· {formatDateTime(w.made_at)}</Text>
                </Text>
              ))}
            </Stack>
            <Button variant="default" size="md" onClick={offlineQueue.dismissSent} data-testid="sent-ack">
              <Trans>Chiudi</Trans>
            </Button>
          </Group>
        </Alert>
      )}
    </Stack>
  )
}

/** What the write did, in the operator's words. */
function WriteDescription({ write }: { write: QueuedWrite }) {
  const title = write.label.step_title || '-'
  const batch = write.label.batch_number ?? '-'
  switch (write.kind) {
    case 'save-step':
      return <Trans>Risposte del passo «{title}» salvate (lotto {batch})</Trans>
    case 'complete-step':
      return <Trans>Passo «{title}» completato (lotto {batch})</Trans>
    case 'complete-batch':
      return <Trans>Lotto {batch} completato</Trans>
    case 'pause':
      return <Trans>Job messo in pausa</Trans>
    case 'serial-links': {
      const pieces = write.label.pieces?.join(', ') ?? '-'
      return <Trans>Seriali dei pezzi {pieces} dichiarati (lotto {batch})</Trans>
    }
  }
}
