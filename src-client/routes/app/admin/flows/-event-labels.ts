import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { FlowEventType } from '../../../../../src/domains/flows/schemas'

/** What each event type a flow may send is called on screen. */
export const EVENT_LABELS: Record<FlowEventType, MessageDescriptor> = {
  JOB_STARTED: msg`Lavorazione avviata`,
  JOB_PAUSED: msg`Lavorazione in pausa`,
  JOB_PAUSE_FORCED: msg`Lavorazione messa in pausa (offline)`,
  JOB_RESUMED: msg`Lavorazione ripresa`,
  JOB_CLOSED: msg`Lavorazione chiusa`,
  BATCH_COMPLETED: msg`Lotto completato`,
  WORK_ORDER_CREATED: msg`Ordine di lavoro creato`,
  WORK_ORDER_CLOSED: msg`Ordine di lavoro chiuso`,
  ISSUE_OPENED: msg`Segnalazione aperta`,
  ISSUE_MADE_CRITICAL: msg`Segnalazione resa critica`,
  ISSUE_ESCALATED: msg`Segnalazione diventata critica (scaduta)`,
  ISSUE_CLOSED: msg`Segnalazione chiusa`,
  SERIAL_CREATED: msg`Seriale creato`,
  SERIAL_FINALIZED: msg`Seriale finalizzato`,
  SERIAL_LINKED: msg`Seriale collegato a un altro`,
  MOVEMENT_CONFIRMED: msg`Movimento di magazzino confermato`,
  MOVEMENT_REVERTED: msg`Movimento di magazzino stornato`,
  MISSION_COMPLETED: msg`Missione di magazzino completata`,
  REVISION_RELEASED: msg`Revisione di processo e distinta rilasciata`,
  WORK_ORDER_REVISION_CHANGED: msg`Ordine di lavoro portato a una revisione più recente`,
  CHAIN_ANCHORED: msg`Ancora giornaliera del registro eventi (numero e impronta dell'ultimo anello)`,
}
