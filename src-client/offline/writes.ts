import type { CompleteBatchInput, CompleteStepInput, PauseJobInput, SaveSerialTempLinksInput, SaveStepInput } from '../../src/domains/execution/schemas'
import { invalidateJob } from '../lib/heartbeat'
import { queryClient, trpc, trpcClient } from '../lib/trpc'

/**
 * The operator writes that may be kept on the tablet while the server cannot be reached (issue
 * 24): each is sent later exactly as it was made, with its idempotency key and the time it was
 * made (`client_time`). Start, resume and a new batch are not among them: the server makes the
 * batch they open (its steps, its pieces), so nothing could be worked on it offline; offline
 * their buttons are disabled with the reason on screen (docs/offline.md).
 */
export type OfflineWrite =
  | { kind: 'save-step'; input: SaveStepInput }
  | { kind: 'complete-step'; input: CompleteStepInput }
  | { kind: 'complete-batch'; input: CompleteBatchInput }
  | { kind: 'pause'; input: PauseJobInput }
  | { kind: 'serial-links'; input: SaveSerialTempLinksInput }

/** A write as the operator made it, before its key and time are stamped on. */
export type OfflineWriteDraft = DistributiveOmit<OfflineWrite, 'input'> & { input: Omit<OfflineWrite['input'], 'idempotency_key' | 'client_time'> }
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

/** What the operator reads about a kept write (the step's title, the batch's number, the pieces): stored with it. */
export type WriteLabel = { step_title?: string; batch_number?: number; pieces?: number[] }

/** A kept write: in the device's queue (`seq` orders it) until the server answered it. */
export type QueuedWrite = OfflineWrite & {
  seq?: number
  user_key: string
  job_key: string
  /** This device's clock when the operator made it (for the list). */
  made_at: number
  label: WriteLabel
}

/** A kept write the server refused: stays listed until the operator has read it. */
export type RefusedWrite = QueuedWrite & { status: number; code: string; message: string; extra: Record<string, unknown>; refused_at: number }

export function sendWrite(w: OfflineWrite): Promise<unknown> {
  switch (w.kind) {
    case 'save-step':
      return trpcClient.execution.saveStep.mutate(w.input)
    case 'complete-step':
      return trpcClient.execution.completeStep.mutate(w.input)
    case 'complete-batch':
      return trpcClient.execution.completeBatch.mutate(w.input)
    case 'pause':
      return trpcClient.execution.pause.mutate(w.input)
    case 'serial-links':
      return trpcClient.execution.saveSerialTempLinks.mutate(w.input)
  }
}

/** After a kept write was answered (accepted or refused): the screens read what the server now holds. */
export function refreshAfter(w: QueuedWrite) {
  void invalidateJob(w.job_key)
  if (w.kind === 'serial-links') void queryClient.invalidateQueries({ queryKey: trpc.execution.batchSerials.queryKey({ batch_key: w.input.batch_key }) })
}
