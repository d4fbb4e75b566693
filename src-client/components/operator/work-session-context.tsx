import { createContext, useContext } from 'react'
import type { ExecutionOutcome, WorkSessionView } from '../../../src/domains/execution/schemas'
import type { ApiError } from '../../lib/api-error'
import type { OfflineWriteDraft, WriteLabel } from '../../offline/writes'
import type { DisplayState } from './job-state'

/** A write that may be kept on the device while the server cannot be reached (offline/writes.ts). */
export type Keepable = { write: OfflineWriteDraft; label: WriteLabel }

/** What the work session layout shares with its tabs. */
export type WorkSession = {
  jobKey: string
  view: WorkSessionView
  state: DisplayState
  /** The job runs here with its work session open (online, or offline within max_offline): steps can be worked. */
  canWork: boolean
  /** The job does not run here for this operator: its pages are read, nothing starts by itself. */
  readOnly: boolean
  /** A write is on its way (buttons show it and do not send twice). */
  busy: boolean
  /**
   * Runs an operator write with its idempotency key (one per action, reused on retry); a
   * refusal shows the server's translated message in the red persistent toast. The outcome
   * updates the screen (next batch, no material, job closed ...). Resolves to the outcome, or
   * null when refused. With `onRefused`, a refusal goes to it instead of the toast (a dialog
   * that shows it in place, like the signature dialog). A `keepable` write made offline (or behind
   * writes still kept) is kept on the device instead (offline/queue.ts) and resolves to its
   * outcome on the screen.
   */
  act: (
    intent: string,
    run: (idempotencyKey: string) => Promise<ExecutionOutcome>,
    options?: { keepable?: Keepable; onRefused?: (err: ApiError) => void },
  ) => Promise<ExecutionOutcome | null>
}

export const WorkSessionContext = createContext<WorkSession | null>(null)

export function useWorkSession(): WorkSession {
  const ws = useContext(WorkSessionContext)
  if (!ws) throw new Error('useWorkSession outside the work session')
  return ws
}
