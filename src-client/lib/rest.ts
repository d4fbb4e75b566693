import { ApiError, GATEWAY_STATUSES } from './api-error'

export const API_PREFIX = '/api'

type Handlers = { onError?: (path: string, error: ApiError) => void }
const handlers: Handlers = {}
/** The auth store registers here to react to 401/423 from any REST call. */
export const setRestErrorHandler = (fn: Handlers['onError']) => {
  handlers.onError = fn
}

/** Calls a documented REST path and unwraps `{detail}`; failures throw ApiError. */
export async function rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response
  try {
    res = await fetch(`${API_PREFIX}${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    })
  } catch (e) {
    throw new ApiError(0, 'NETWORK', e instanceof Error ? e.message : 'network error')
  }
  const json = await res.json().catch(() => null)
  if (!res.ok) {
    const detail = json?.detail ?? {}
    const { message, code, ...extra } = detail
    // No code of ours: a gateway answered for an instance that did not (unreachable), else a bug.
    const fallback = GATEWAY_STATUSES.has(res.status) ? 'NETWORK' : 'INTERNAL'
    const error = new ApiError(res.status, code ?? fallback, message ?? res.statusText, extra)
    handlers.onError?.(path, error)
    throw error
  }
  return json?.detail as T
}
