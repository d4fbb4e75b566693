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

/** Appends one dated section to bench/RESULTS.md (created with a title the first time). */
export function appendResults(title: string, body: string): void {
  if (!existsSync(RESULTS_FILE)) {
    writeFileSync(RESULTS_FILE, '# Benchmark results\n\nEach section is appended by `bun run bench`; newest last. See README.md for what is measured.\n')
  }
  const stamp = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
  appendFileSync(RESULTS_FILE, `\n## ${stamp} - ${title}\n\n${body.trim()}\n`)
}
