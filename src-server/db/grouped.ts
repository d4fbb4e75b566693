/**
 * Requests answered in groups: a request starts a round at once when fewer than `maxInFlight`
 * rounds are running; otherwise it waits and goes out with the others that arrived meanwhile, in
 * ONE round, as soon as a round ends. Nothing waits for a timer, and a request never joins a round
 * already started (it is answered by work that began after it was asked for). Used where one
 * statement for many rows costs about what one for a single row does: heartbeat writes
 * (domains/execution/heartbeat-writer.ts) and session reads (auth/session-reads.ts).
 */
export class Grouped<In, Out> {
  private queue: { input: In; done: (out: Out) => void; fail: (e: unknown) => void }[] = []
  private inFlight = 0

  /** `round` answers a group's inputs, one output per input in the same order. */
  constructor(
    private readonly round: (inputs: In[]) => Promise<Out[]>,
    private readonly maxInFlight: number,
    private readonly maxGroup: number,
  ) {}

  ask(input: In): Promise<Out> {
    return new Promise<Out>((done, fail) => {
      this.queue.push({ input, done, fail })
      if (this.inFlight < this.maxInFlight) void this.run()
    })
  }

  /** One round loop: takes what is queued, answers it, and goes on while requests keep coming. */
  private async run() {
    this.inFlight++
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, this.maxGroup)
        try {
          const outs = await this.round(group.map((g) => g.input))
          group.forEach((g, i) => g.done(outs[i]!))
        } catch (e) {
          for (const g of group) g.fail(e)
        }
      }
    } finally {
      this.inFlight--
    }
  }
}
