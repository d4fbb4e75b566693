import { Trans } from '@lingui/react/macro'
import { Alert, Button, Group, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import { jobRuntime, type RuntimeState } from '../../lib/heartbeat'
import { formatDuration } from './format'

/**
 * Connectivity and heartbeat notices of the work session: OFFLINE, or the server unreachable
 * because its database does not answer (and for how long, against max_offline), the work session closed for being offline too long, and why the heartbeat
 * stopped (paused on the server, session locked, an error).
 */
export function RuntimeNotices({ jobKey, runtime, maxOfflineS }: { jobKey: string; runtime: RuntimeState; maxOfflineS: number }) {
  const closedSince = runtime.closedOffline.get(jobKey)
  const stop = runtime.stopped.get(jobKey)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (runtime.online) return
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [runtime.online])

  if (!runtime.online) {
    const since = runtime.offlineSince ?? now
    const database = runtime.offlineCause === 'database'
    return (
      <Alert
        color="red"
        variant="filled"
        mb="xs"
        data-testid="offline-banner"
        data-cause={runtime.offlineCause ?? 'network'}
        title={database ? <Trans>Server non raggiungibile: il database non risponde</Trans> : <Trans>OFFLINE: connessione al server persa</Trans>}
      >
        <Group justify="space-between" wrap="nowrap">
          <Text size="md">
            {database && (
              <>
                <Trans>Quello che hai inserito resta qui: lo potrai confermare appena il server risponde.</Trans>{' '}
              </>
            )}
            {closedSince !== undefined ? (
              <Trans>Sessione di lavoro chiusa: offline da più di {maxOfflineS} s. Il job è in pausa; torna online per continuare.</Trans>
            ) : maxOfflineS > 0 ? (
              <Trans>
                Offline da {formatDuration(now - since)}: la sessione di lavoro si chiude dopo {maxOfflineS} s senza connessione.
              </Trans>
            ) : (
              <Trans>Offline da {formatDuration(now - since)}.</Trans>
            )}
          </Text>
          <Button variant="white" color="red" size="md" onClick={() => void jobRuntime.probe()} style={{ flexShrink: 0 }}>
            <Trans>Riprova</Trans>
          </Button>
        </Group>
      </Alert>
    )
  }
  if (!stop) return null
  return (
    <Alert
      color={stop.reason === 'error' ? 'red' : 'orange'}
      variant="light"
      mb="xs"
      withCloseButton
      onClose={() => jobRuntime.clearStop(jobKey)}
      data-testid="heartbeat-stopped"
    >
      <Text size="md">
        {stop.reason === 'offline_closed' ? (
          <Trans>Di nuovo online. Il job è stato messo in pausa per l'assenza di connessione: riprendilo per continuare.</Trans>
        ) : stop.reason === 'paused_offline' ? (
          <Trans>Il server ha messo in pausa il job: nessun segnale da questo dispositivo per troppo tempo.</Trans>
        ) : stop.reason === 'session_locked' ? (
          <Trans>Il job è stato messo in pausa: la sessione è bloccata e la fase non consente il lavoro non presidiato.</Trans>
        ) : stop.reason === 'error' ? (
          <Trans>Heartbeat interrotto: {stop.message}</Trans>
        ) : stop.reason === 'closed' ? (
          <Trans>Il job è chiuso.</Trans>
        ) : (
          <Trans>Il job non è più in lavorazione su questo dispositivo.</Trans>
        )}
      </Text>
    </Alert>
  )
}
