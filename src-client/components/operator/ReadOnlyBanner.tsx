import { Trans } from '@lingui/react/macro'
import { Alert, Text } from '@mantine/core'
import type { WorkSessionView } from '../../../src/domains/execution/schemas'
import { InterruptionLine } from './interruption'

/**
 * The work session of a job not running here is read-only (issue 11): the operator reads its
 * steps, documents, notes, issues and messages; nothing starts, no timer, no heartbeat. The
 * banner says why it cannot start, in the server's words (`can.start_blocked`), or how to start it,
 * and, when production paused the job or gave it away (issue 26), who did it, when and why.
 */
export function ReadOnlyBanner({ view, me }: { view: WorkSessionView; me: string }) {
  const { can, job, interruption } = view
  if (job.status === 'closed') return null
  return (
    <Alert
      color={can.start ? 'blue' : 'yellow'}
      variant="light"
      mb="xs"
      title={<Trans>Sola lettura: il job non è in corso su questo dispositivo</Trans>}
      data-testid="read-only-banner"
      data-reason={can.start_blocked ?? 'can_start'}
    >
      {interruption && <InterruptionLine interruption={interruption} me={me} />}
      <Text size="md">
        {can.start ? (
          job.status === 'queued' ? (
            <Trans>Premi Avvia per aprire il primo lotto e lavorare sui passi.</Trans>
          ) : (
            <Trans>Premi Riprendi per continuare a lavorare sui passi.</Trans>
          )
        ) : (
          <StartBlockedReason reason={can.start_blocked} />
        )}
      </Text>
    </Alert>
  )
}

/** Why a job cannot start now, for the operator (one sentence per reason of the server's rule). */
export function StartBlockedReason({ reason }: { reason: WorkSessionView['can']['start_blocked'] }) {
  switch (reason) {
    case 'no_material':
      return <Trans>Non si può avviare: manca il materiale dalla fase precedente.</Trans>
    case 'parallel_not_allowed':
      return <Trans>Non si può avviare: un altro tuo job è in corso e queste fasi non consentono il lavoro in parallelo. Metti in pausa l'altro job per avviare questo.</Trans>
    case 'not_yours':
      return <Trans>Non si può avviare: il job è assegnato a un altro operatore.</Trans>
    case 'running':
      return <Trans>Il job è in corso su un altro dispositivo o per un altro operatore.</Trans>
    case 'closed':
      return <Trans>Il job è chiuso.</Trans>
    case null:
      return null
  }
}
