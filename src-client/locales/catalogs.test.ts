import { describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readCatalog } from '../../scripts/po'

const ROOT = path.join(import.meta.dir, '..', '..')

async function extractInto(dir: string) {
  const proc = Bun.spawn(['bun', 'x', '--bun', 'lingui', 'extract', '--workers', '1'], {
    cwd: ROOT,
    env: { ...process.env, LINGUI_CATALOG_DIR: dir },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const code = await proc.exited
  if (code !== 0) throw new Error(`lingui extract failed: ${await new Response(proc.stderr).text()}`)
}

const ids = async (file: string) => {
  const text = await Bun.file(file).text()
  return new Set([...text.matchAll(/^msgid (".*")$/gm)].map((m) => JSON.parse(m[1] as string) as string).filter(Boolean))
}

describe('translation catalogs', () => {
  test('every message in the code is in both catalogs (run `bun run i18n:extract`)', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'mes-i18n-'))
    try {
      cpSync(path.join(ROOT, 'src-client', 'locales'), scratch, { recursive: true })
      await extractInto(scratch)
      for (const locale of ['it', 'en']) {
        const fresh = await ids(path.join(scratch, locale, 'messages.po'))
        const committed = await ids(path.join(ROOT, 'src-client', 'locales', locale, 'messages.po'))
        expect({ locale, missing: [...fresh].filter((m) => !committed.has(m)) }).toEqual({ locale, missing: [] })
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
    // The extraction compiles every client module: on a loaded 2-core machine, with the other
    // half of the server tests running beside it, it has taken over a minute.
  }, 120_000)

  test('English translates every message', async () => {
    const untranslated = (await readCatalog('en')).filter((e) => e.msgid && !e.msgstr).map((e) => e.msgid)
    expect(untranslated).toEqual([])
  })
})
