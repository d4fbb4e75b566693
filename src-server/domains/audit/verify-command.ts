import * as v from 'valibot'
import type { Db } from '../../db/schema'
import { AnchorFile, anchorVerdict, checkAnchor } from './anchor'
import { chainVerdict, verifyChain } from './chain'

/**
 * What `bun run verify-audit` says: the chain walk (read-only: events not linked yet are counted
 * as pending), and with an anchor file's text whether the chain still reaches its hash at its
 * number. A file that is not an anchor throws (a usage error, not a broken chain).
 */
export async function verifyAudit(db: Db, anchorText: string | undefined, lang: 'it' | 'en'): Promise<{ lines: string[]; ok: boolean }> {
  let anchor: AnchorFile | undefined
  if (anchorText !== undefined) {
    let json: unknown
    try {
      json = JSON.parse(anchorText)
    } catch {
      throw new Error(lang === 'it' ? 'il file di ancora non è JSON' : 'the anchor file is not JSON')
    }
    const parsed = v.safeParse(AnchorFile, json)
    if (!parsed.success) {
      const path = parsed.issues[0].path?.map((p) => String(p.key)).join('.') ?? ''
      throw new Error(`${lang === 'it' ? 'il file non è un’ancora della catena' : 'not an event chain anchor'} (${path}: ${parsed.issues[0].message})`)
    }
    anchor = parsed.output
  }
  const check = await verifyChain(db)
  const lines = [chainVerdict(check, lang)]
  let ok = check.ok
  if (anchor) {
    const a = await checkAnchor(db, anchor)
    lines.push(anchorVerdict(a, anchor, lang))
    ok &&= a.ok
  }
  return { lines, ok }
}
