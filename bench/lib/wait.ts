/**
 * Polls `done` every `everyMs` until it holds; throws after `timeoutMs` naming `what`, so a
 * benchmark whose condition never comes stops instead of waiting forever.
 */
export async function waitUntil(done: () => boolean, timeoutMs: number, what: string, everyMs = 10): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`gave up after ${(timeoutMs / 1000).toFixed(0)} s waiting for ${what}`)
    await Bun.sleep(everyMs)
  }
}
