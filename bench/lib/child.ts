import type { Subprocess } from 'bun'

/** A server under test, in its own `bun` process so it never shares an event loop with the load generator. */
export type ChildServer = { name: string; port: number; proc: Subprocess; stop: () => Promise<void> }

const READY = /^BENCH_READY port=(\d+)$/m

/**
 * Starts `bun <script>` and waits for it to print `BENCH_READY port=N` on stdout (servers listen
 * on port 0 on 127.0.0.1, so parallel or leftover runs never collide). Everything else the child
 * prints on stdout is passed on, prefixed with its name.
 */
export async function startChild(name: string, script: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<ChildServer> {
  // BENCH_PROFILE=DIR: every server writes a CPU profile (Markdown, grep-friendly) into DIR on exit.
  const profile = process.env.BENCH_PROFILE
  const flags = profile ? ['--cpu-prof-md', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=${name.replace(/\W+/g, '-')}-${Date.now()}.md`] : []
  const proc = Bun.spawn([process.execPath, ...flags, script], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
    stdin: 'ignore',
  })
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready after ${timeoutMs} ms`)), timeoutMs)
    proc.exited.then((code) => reject(new Error(`${name}: exited with ${code} before it was ready`)))
    ;(async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        const m = buffer.match(READY)
        if (m) {
          clearTimeout(timer)
          for (const line of buffer.slice(0, m.index).split('\n').filter(Boolean)) console.log(`  [${name}] ${line}`)
          buffer = ''
          resolve(Number(m[1]))
          break
        }
      }
      // Keep draining so a chatty child never blocks on a full pipe.
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        for (const line of decoder.decode(value).split('\n').filter(Boolean)) console.log(`  [${name}] ${line}`)
      }
    })().catch(reject)
  }).catch((e) => {
    proc.kill('SIGKILL')
    throw e
  })
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    proc.kill('SIGTERM')
    const timeout = setTimeout(() => proc.kill('SIGKILL'), 5_000)
    await proc.exited
    clearTimeout(timeout)
  }
  return { name, port, proc, stop }
}
