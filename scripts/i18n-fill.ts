/**
 * Fills English (or any locale's) translations in a Lingui .po catalog from a JSON map
 * {"Italian source": "translation"}: `bun scripts/i18n-fill.ts en map.json`.
 * Run `bun run i18n:extract` first; `bun scripts/i18n-missing.ts` lists what is still empty.
 */
import { readCatalog, writeCatalog } from './po'

const [locale, mapFile] = process.argv.slice(2)
if (!locale || !mapFile) {
  console.error('usage: bun scripts/i18n-fill.ts <locale> <map.json>')
  process.exit(2)
}
const map = (await Bun.file(mapFile).json()) as Record<string, string>
const catalog = await readCatalog(locale)
let filled = 0
for (const entry of catalog) {
  const translation = map[entry.msgid]
  if (translation !== undefined && entry.msgid) {
    entry.msgstr = translation
    filled++
  }
}
await writeCatalog(locale, catalog)
console.log(`${locale}: filled ${filled} of ${Object.keys(map).length} given translations`)
