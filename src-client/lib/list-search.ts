/**
 * Reading a list's state back from the URL (`validateSearch` of the list routes): anything
 * unknown or malformed is dropped, so a hand-edited or stale link still opens the list.
 */

/** One of `values`, else undefined. */
export const pick = <T extends string>(values: readonly T[], x: unknown): T | undefined => (values.includes(x as T) ? (x as T) : undefined)

/** The search text: trimmed-empty means none; at most 100 characters. */
export const searchText = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() ? x.slice(0, 100) : undefined)

/** A page after the first (page 1 is the default and stays out of the URL). */
export function pageNumber(x: unknown): number | undefined {
  const page = Number(x)
  return Number.isInteger(page) && page > 1 ? page : undefined
}

/**
 * A search box's own writes on their way to the URL. The URL comes back with each of them, maybe
 * after more was typed (a busy machine): such an echo is not a change made elsewhere, and the box
 * keeps what was typed since. `cameBack` says whether the value is one of them (dropping it and
 * any written before it); anything else is a change from elsewhere and forgets them all.
 */
export class SearchWrites<T> {
  private pending: T[] = []

  wrote(value: T) {
    this.pending.push(value)
  }

  /** What the state will say once every write on its way has come back: the newest, else `now`. */
  settled(now: T): T {
    return this.pending.length ? this.pending.at(-1)! : now
  }

  cameBack(value: T): boolean {
    const at = this.pending.indexOf(value)
    this.pending = at >= 0 ? this.pending.slice(at + 1) : []
    return at >= 0
  }
}
