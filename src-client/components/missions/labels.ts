import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { MissionKind, MissionStatus, MovementListKind } from '../../../src/domains/missions/schemas'

export const MISSION_KIND_LABELS: Record<MissionKind, MessageDescriptor> = {
  to_line: msg`Componenti in linea`,
  put_away: msg`Prodotti finiti a magazzino`,
  manual: msg`Manuale`,
}

export const MISSION_STATUS_LABELS: Record<MissionStatus, MessageDescriptor> = {
  open: msg`Da fare`,
  in_progress: msg`In corso`,
  done: msg`Completata`,
  cancelled: msg`Annullata`,
}

export const MISSION_STATUS_COLORS: Record<MissionStatus, string> = { open: 'blue', in_progress: 'orange', done: 'green', cancelled: 'gray' }

export const LIST_KIND_LABELS: Record<MovementListKind, MessageDescriptor> = {
  work_order: msg`Ordine di lavoro`,
  day: msg`Giorno`,
  mission: msg`Missione`,
}
