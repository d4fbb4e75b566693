/**
 * Waits until `check` holds, polling every `everyMs`, for at most `timeoutMs`; then fails naming
 * `what`. Tests wait for the state they need (a delivery recorded, a job paused), never a fixed time.
 */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, { timeoutMs = 30_000, everyMs = 50 } = {}): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await Bun.sleep(everyMs)
  }
}
