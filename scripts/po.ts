import path from 'node:path'

/** Minimal reader/writer for the Lingui .po catalogs (one-line msgid/msgstr, as Lingui writes them). */
export type PoEntry = { head: string[]; msgid: string; msgstr: string }

export const catalogPath = (locale: string) => path.join(import.meta.dir, '..', 'src-client', 'locales', locale, 'messages.po')

const unquote = (s: string) => JSON.parse(s) as string
const quote = (s: string) => JSON.stringify(s)

export const readCatalog = (locale: string): Promise<PoEntry[]> => readCatalogFile(catalogPath(locale))

export async function readCatalogFile(file: string): Promise<PoEntry[]> {
  const text = await Bun.file(file).text()
  return text
    .split(/\n\n+/)
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n')
      const head: string[] = []
      let msgid = ''
      let msgstr = ''
      let field: 'msgid' | 'msgstr' | null = null
      for (const line of lines) {
        if (line.startsWith('msgid ')) (field = 'msgid'), (msgid = unquote(line.slice(6)))
        else if (line.startsWith('msgstr ')) (field = 'msgstr'), (msgstr = unquote(line.slice(7)))
        else if (line.startsWith('"') && field === 'msgid') msgid += unquote(line)
        else if (line.startsWith('"') && field === 'msgstr') msgstr += unquote(line)
        else head.push(line)
      }
      return { head, msgid, msgstr }
    })
}

export async function writeCatalog(locale: string, entries: PoEntry[]) {
  const blocks = entries.map((e) => [...e.head, `msgid ${quote(e.msgid)}`, `msgstr ${quote(e.msgstr)}`].join('\n'))
  await Bun.write(catalogPath(locale), `${blocks.join('\n\n')}\n`)
}

/** Source messages without a translation in `locale` (the header entry excluded). */
export async function missingTranslations(locale: string): Promise<string[]> {
  return (await readCatalog(locale)).filter((e) => e.msgid && !e.msgstr).map((e) => e.msgid)
}
