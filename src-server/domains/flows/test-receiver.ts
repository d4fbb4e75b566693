import { verify } from './signature'

export type Received = { id: string; timestamp: string; body: string; type: string; signatureOk: boolean; status: number }

/**
 * A webhook receiver for tests (a real Bun.serve on 127.0.0.1): checks every signature with the
 * secret, answers 500 to the first `failFirst` tries of each webhook-id and 200 after, and keeps
 * every request it got (`all`) and the first accepted copy of each id in arrival order (`accepted`).
 */
export function startReceiver(secret: () => string, opts: { failFirst?: number; alwaysFail?: boolean } = {}) {
  const all: Received[] = []
  const accepted: Received[] = []
  const seen = new Set<string>()
  const tries = new Map<string, number>()
  // While holding, requests get no answer until released (or until the sender goes away).
  let holding = false
  let release: () => void = () => {}
  let released = Promise.resolve()
  const held: { id: string; aborted: boolean }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      const body = await req.text()
      if (holding) {
        const entry = { id: req.headers.get('webhook-id') ?? '', aborted: false }
        held.push(entry)
        const gone = new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve()))
        await Promise.race([released, gone])
        if (req.signal.aborted) {
          entry.aborted = true
          return new Response('gone', { status: 499 })
        }
      }
      const id = req.headers.get('webhook-id') ?? ''
      const timestamp = req.headers.get('webhook-timestamp') ?? ''
      const signature = req.headers.get('webhook-signature') ?? ''
      const signatureOk = verify(secret(), { id, timestamp, signature }, body)
      const n = (tries.get(id) ?? 0) + 1
      tries.set(id, n)
      const status = !signatureOk ? 401 : opts.alwaysFail || n <= (opts.failFirst ?? 0) ? 500 : 200
      let type = ''
      try {
        type = JSON.parse(body).type
      } catch {}
      const r = { id, timestamp, body, type, signatureOk, status }
      all.push(r)
      // De-duplication by webhook-id, as a receiver is told to do.
      if (status === 200 && !seen.has(id)) {
        seen.add(id)
        accepted.push(r)
      }
      return new Response(status === 200 ? 'ok' : 'try again', { status })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    held,
    hold() {
      holding = true
      released = new Promise<void>((resolve) => {
        release = resolve
      })
    },
    release() {
      holding = false
      release()
    },
    all,
    accepted,
    triesOf: (id: string) => tries.get(id) ?? 0,
    stop: () => server.stop(true),
    async waitFor(check: () => boolean, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${all.length} requests`)
        await Bun.sleep(50)
      }
    },
  }
}
