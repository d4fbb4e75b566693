/**
 * The time an offline write was made (issue 24): checked against the phase's max_offline and
 * recorded in the write's events. Called inside the write's idempotent transaction, so a retry of
 * a write already accepted answers its first outcome even once its client time has aged.
 */
import { CLIENT_TIME_SKEW_MS, clientTimeProblem } from '../../../src/domains/execution/rules'
import { badRequest, conflict } from '../../errors'

/** The event data that records the client time (nothing when the client sent none); refuses one out of bounds. */
export function clientTimeData(clientTime: number | undefined, now: Date, maxOfflineS: number): { client_time?: number } {
  if (clientTime === undefined) return {}
  const problem = clientTimeProblem(clientTime, now.getTime(), maxOfflineS)
  if (problem === 'future') {
    throw badRequest('CLIENT_TIME_IN_FUTURE', `client_time is more than ${CLIENT_TIME_SKEW_MS / 1000} s ahead of the server clock`, {
      server_time: now.getTime(),
    })
  }
  if (problem === 'past_max_offline') {
    throw conflict('CLIENT_TIME_PAST_MAX_OFFLINE', `made more than the phase's max_offline (${maxOfflineS} s) ago: its work session was closed for silence`, {
      client_time: clientTime,
      server_time: now.getTime(),
      max_offline_s: maxOfflineS,
    })
  }
  return { client_time: clientTime }
}
