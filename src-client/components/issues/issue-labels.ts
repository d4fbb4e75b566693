import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { ISSUE_EVENTS, type IssueAction, type IssueContextType, type IssueState } from '../../../src/domains/issues/schemas'

/** "Segnalazione" is feminine in Italian: the states and flags agree with it. */
export const STATE_LABELS: Record<IssueState, MessageDescriptor> = {
  open: msg`Aperta`,
  reopened: msg`Riaperta`,
  closed: msg`Chiusa`,
}

/** The state filter chips, in the plural ("Aperte · 5"). */
export const STATE_FILTER_LABELS: Record<IssueState, MessageDescriptor> = {
  open: msg`Aperte`,
  reopened: msg`Riaperte`,
  closed: msg`Chiuse`,
}

export const CONTEXT_LABELS: Record<IssueContextType, MessageDescriptor> = {
  job: msg`Lavoro`,
  work_order: msg`Ordine di lavoro`,
  product: msg`Prodotto`,
  generic: msg`Generale`,
}

export const ACTION_LABELS: Record<IssueAction, MessageDescriptor> = {
  close: msg`Chiudi`,
  reopen: msg`Riapri`,
  reopen_critical: msg`Riapri come critica`,
  make_critical: msg`Rendi critica`,
  make_non_critical: msg`Rendi non critica`,
}

/** The success toast of each action. */
export const ACTION_DONE: Record<IssueAction, MessageDescriptor> = {
  close: msg`Segnalazione chiusa`,
  reopen: msg`Segnalazione riaperta`,
  reopen_critical: msg`Segnalazione riaperta come critica`,
  make_critical: msg`Segnalazione resa critica`,
  make_non_critical: msg`Segnalazione non più critica`,
}

/** The timeline's label of each event type (ISSUE_EVENTS). */
export const EVENT_LABELS: Record<string, MessageDescriptor> = {
  // Not "Aperta": that is the state (English "Open").
  [ISSUE_EVENTS.opened]: msg`Segnalazione aperta`,
  [ISSUE_EVENTS.updated]: msg`Modificata`,
  [ISSUE_EVENTS.closed]: msg`Chiusa`,
  [ISSUE_EVENTS.reopened]: msg`Riaperta`,
  [ISSUE_EVENTS.reopened_critical]: msg`Riaperta come critica`,
  [ISSUE_EVENTS.made_critical]: msg`Resa critica`,
  [ISSUE_EVENTS.made_non_critical]: msg`Resa non critica`,
  [ISSUE_EVENTS.escalated]: msg`Diventata critica automaticamente`,
  [ISSUE_EVENTS.attachment_added]: msg`Allegato aggiunto`,
}

export const EVENT_COLORS: Record<string, string> = {
  [ISSUE_EVENTS.opened]: 'blue',
  [ISSUE_EVENTS.closed]: 'gray',
  [ISSUE_EVENTS.reopened]: 'orange',
  [ISSUE_EVENTS.reopened_critical]: 'red',
  [ISSUE_EVENTS.made_critical]: 'red',
  [ISSUE_EVENTS.made_non_critical]: 'teal',
  [ISSUE_EVENTS.escalated]: 'red',
}
