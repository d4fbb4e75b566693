import { appendFileSync, existsSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const RESULTS_FILE = path.join(import.meta.dir, '..', 'RESULTS.md')

/** A plain-text table for the terminal and Markdown for RESULTS.md. */
export function table(header: string[], rows: string[][], numeric: boolean[] = header.map((_, i) => i > 0)): { text: string; markdown: string } {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()
  const text = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
  const md = (cells: string[]) => `| ${cells.join(' | ')} |`
  const markdown = [md(header), md(header.map((_, i) => (numeric[i] ? '---:' : '---'))), ...rows.map(md)].join('\n')
  return { text, markdown }
}

export function machineLine(extra: string[] = []): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU'
  return [`${os.cpus().length} cores (${cpu})`, `${Math.round(os.totalmem() / 2 ** 30)} GiB`, `Bun ${Bun.version}`, ...extra].join(', ')
}

/** The load average as `uptime` shows it: how much other work shared the 2 cores around a figure. */
export function loadAverage(): string {
  return `load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`
}

/** Appends one dated section to bench/RESULTS.md (created with a title the first time). */
export function appendResults(title: string, body: string): void {
  if (!existsSync(RESULTS_FILE)) {
    writeFileSync(RESULTS_FILE, '# Benchmark results\n\nEach section is appended by `bun run bench`; newest last. See README.md for what is measured.\n')
  }
  const stamp = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
  appendFileSync(RESULTS_FILE, `\n## ${stamp} - ${title}\n\n${body.trim()}\n`)
}

/** The nearest-rank percentile p (0-100) of timings in any order. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

export const SCALE_HEADER = ['query', 'rows small / large', 'p50 ms small', 'p99 ms small', 'p50 ms large', 'p99 ms large', 'p50 ratio', 'target']
export const SCALE_NUMERIC = [false, true, true, true, true, true, true, false]

/**
 * One row of a small-vs-large comparison (timings of the small and the large database): met when
 * `absoluteMet(p50 large, p99 large)` says so, or, without it, when the large p50 is within 2x of the small.
 */
export function scaleRow(
  label: string,
  returned: readonly (string | number)[],
  times: readonly [number[], number[]],
  absoluteMet?: (p50Large: number, p99Large: number) => boolean,
): { row: string[]; verdict: 'met' | 'MISSED'; p50s: number; p50l: number; p99l: number } {
  const [p50s, p99s, p50l, p99l] = [percentile(times[0], 50), percentile(times[0], 99), percentile(times[1], 50), percentile(times[1], 99)]
  const ratio = p50l / p50s
  const verdict = (absoluteMet ? absoluteMet(p50l, p99l) : ratio <= 2) ? 'met' : 'MISSED'
  return { row: [label, returned.join(' / '), p50s.toFixed(2), p99s.toFixed(2), p50l.toFixed(2), p99l.toFixed(2), ratio.toFixed(2), verdict], verdict, p50s, p50l, p99l }
}
