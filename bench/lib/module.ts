/** One benchmark that `bun run bench <name>` can run; bench/run.ts lists them all. */
export type BenchModule = {
  name: string
  title: string
  /** Measures, prints a table and appends its section to bench/RESULTS.md. Throws on failure. */
  run: (ctx: BenchContext) => Promise<void>
}

export type BenchContext = {
  /** The command line that reproduces this run, for RESULTS.md. */
  command: string
  /** Registers work that must happen even when the run is interrupted (stop servers, drop databases). */
  onCleanup: (fn: () => Promise<void> | void) => void
}
