import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import type { Plugin } from 'vite'
import path from 'node:path'
import { readCatalogFile } from './po.ts'

/**
 * The compiled catalog in two parts (issue 23, the operator's first load): `floor`, what the
 * sign-in page, the app layout, the operator's screens and the shared components say, loaded
 * with the locale; `office`, the messages only the office areas' own route files say (production,
 * library, admin...), loaded before the first office screen (src-client/lib/i18n.ts). Imported as
 * `messages.po?floor?lingui` (the Lingui plugin compiles the whole catalog for any id ending in
 * `?lingui`; this plugin, after it, keeps one part). One catalog file stays the source.
 */
export const CATALOG_PART = /[\\/]messages\.po\?(floor|office)\?lingui$/

/** A route file of an office area: anything below routes/app/ but the operator's area and /app itself. */
const OFFICE_ROUTE = /^src-client\/routes\/app\/(?!operator\/|index\.tsx$)[^/]+\//

/** The ids of the messages only office route files say (a message said anywhere else is the floor's), from the source locale's catalog next to `file`. */
async function officeIds(file: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for (const entry of await readCatalogFile(path.join(path.dirname(path.dirname(file)), 'it', 'messages.po'))) {
    const origins = entry.head.filter((l) => l.startsWith('#: ')).flatMap((l) => l.slice(3).trim().split(/\s+/))
    if (entry.msgid && origins.length > 0 && origins.every((o) => OFFICE_ROUTE.test(o))) ids.add(generateMessageId(entry.msgid))
  }
  return ids
}

const COMPILED = /JSON\.parse\(((["'])(?:\\.|(?!\2)[^\\])*\2)\)/s

export function catalogParts(): Plugin {
  let office: Promise<Set<string>> | undefined
  return {
    name: 'mes-catalog-parts',
    transform: {
      filter: { id: CATALOG_PART },
      async handler(code, id) {
        const part = CATALOG_PART.exec(id)?.[1]
        const literal = COMPILED.exec(code)?.[1]
        if (!part || !literal) throw new Error(`mes-catalog-parts: no compiled catalog in ${id}`)
        office ??= officeIds(id.split('?')[0] as string)
        const officeSet = await office
        const all = JSON.parse(new Function(`return ${literal}`)() as string) as Record<string, unknown>
        const kept = Object.fromEntries(Object.entries(all).filter(([key]) => officeSet.has(key) === (part === 'office')))
        return { code: `export const messages=JSON.parse(${JSON.stringify(JSON.stringify(kept))});`, map: null, moduleType: 'js' }
      },
    },
  }
}
