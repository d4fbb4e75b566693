/** Time source passed to services, so tests can move time without mocking modules. */
export type Clock = { now: () => Date }
export const systemClock: Clock = { now: () => new Date() }

export function fakeClock(start: Date | string = '2026-01-05T08:00:00Z') {
  let t = new Date(start).getTime()
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms
    },
    set(to: Date | string) {
      t = new Date(to).getTime()
    },
  }
}
