/** A count from the environment (BENCH_RUNS=200 ...): the fallback when unset, else a whole number of at least `min`. */
export function env(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}, not '${raw}'`)
  return n
}
