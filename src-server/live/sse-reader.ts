/**
 * A small Server-Sent Events reader for tests and the benchmark: frames as they arrive, and a
 * wait for the first frame (after some index) that matches.
 */
export type SseFrame = { id?: string; event?: string; data: string; json: any; at: number }

export type SseReader = {
  frames: SseFrame[]
  /** The first frame at index >= `from` matching, within timeoutMs (rejects with what arrived). */
  waitFor: (match: (f: SseFrame) => boolean, opts?: { timeoutMs?: number; from?: number }) => Promise<SseFrame>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close: () => void
}

export function readSse(res: Response): SseReader {
  if (!res.body) throw new Error(`no stream: ${res.status}`)
  const reader = res.body.getReader()
  const frames: SseFrame[] = []
  const waiters = new Set<() => void>()
  let done = false
  const decoder = new TextDecoder()
  let buffer = ''
  const parse = (block: string) => {
    const frame: SseFrame = { data: '', json: null, at: performance.now() }
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue
      const i = line.indexOf(':')
      const field = i < 0 ? line : line.slice(0, i)
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '')
      if (field === 'data') data.push(value)
      else if (field === 'id') frame.id = value
      else if (field === 'event') frame.event = value
    }
    if (data.length === 0 && frame.id === undefined && frame.event === undefined) return
    frame.data = data.join('\n')
    try {
      frame.json = JSON.parse(frame.data)
    } catch {}
    frames.push(frame)
  }
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read()
        if (end) break
        buffer += decoder.decode(value, { stream: true })
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          parse(buffer.slice(0, cut))
          buffer = buffer.slice(cut + 2)
          cut = buffer.indexOf('\n\n')
        }
        for (const w of waiters) w()
      }
    } catch {
      // cancelled
    } finally {
      done = true
      for (const w of waiters) w()
    }
  })()
  return {
    frames,
    ended,
    close: () => {
      void reader.cancel().catch(() => {})
    },
    waitFor(match, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 5_000
      const from = opts.from ?? 0
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match)
          if (found) {
            cleanup()
            resolve(found)
          } else if (done) {
            cleanup()
            reject(new Error(`stream ended; frames: ${JSON.stringify(frames.map((f) => f.event ?? f.data.slice(0, 80)))}`))
          }
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`no matching frame within ${timeoutMs} ms; frames: ${JSON.stringify(frames.map((f) => f.event ?? f.data.slice(0, 80)))}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
  }
}
