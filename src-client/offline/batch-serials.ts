import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { SaveSerialTempLinksInput } from '../../src/domains/execution/schemas'
import type { BatchSerials } from '../../src/domains/serials/batch-serials'
import { isUnreachable, toApiError } from '../lib/api-error'
import { jobRuntime } from '../lib/heartbeat'
import { forgetIntent, withIdempotency } from '../lib/idempotency'
import { BACKGROUND, trpc, trpcClient } from '../lib/trpc'
import { offlineQueue, useOfflineQueue } from './queue'
import { serialsWithPending } from './serials-overlay'
import type { WriteLabel } from './writes'

/** The batch's serials as the operator declared them: the server's answer with the declarations kept on the device laid over it. */
export function useBatchSerials(batchKey: string): { data: BatchSerials | undefined } {
  const query = useQuery(trpc.execution.batchSerials.queryOptions({ batch_key: batchKey }, { trpc: BACKGROUND }))
  const { pending } = useOfflineQueue()
  const data = useMemo(() => (query.data ? serialsWithPending(query.data, pending) : undefined), [query.data, pending])
  return { data }
}

/**
 * Declares serials of pieces of the open batch (`PUT batch/{key}/serial-temp-links`) with its
 * idempotency key: sent now, or kept on the device like the steps' writes when the client is
 * offline, when writes are still waiting (it never overtakes them), or when the send could not
 * reach the server (kept with the key it was sent with: applied or not, it counts once).
 * Resolves to the server's answer, or 'kept'; a refusal is thrown as the server gave it.
 */
export async function declareSerials(
  input: Omit<SaveSerialTempLinksInput, 'idempotency_key' | 'client_time'>,
  jobKey: string,
  label: WriteLabel,
): Promise<BatchSerials | 'kept'> {
  const keep = async (key?: string) => {
    await offlineQueue.keep({ kind: 'serial-links', input }, jobKey, label, key)
    return 'kept' as const
  }
  if (!jobRuntime.getState().online || offlineQueue.holdsWrites()) return keep()
  const intent = `serial-links:${input.batch_key}`
  let sentWith: string | undefined
  try {
    return await withIdempotency(intent, (key) => {
      sentWith = key
      return trpcClient.execution.saveSerialTempLinks.mutate({ ...input, idempotency_key: key })
    })
  } catch (e) {
    const err = toApiError(e)
    if (!sentWith || !isUnreachable(err)) throw e
    forgetIntent(intent)
    jobRuntime.reportUnreachable(err)
    return keep(sentWith)
  }
}
