import { sql } from 'kysely'
import * as v from 'valibot'
import type { ChainAnchor, AnchorCheck } from '../../../src/domains/audit/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/schema'
import { chainCommittedEvents } from '../events/chainer'
import { appendEvent } from '../events/service'
import { plantTimeZone } from '../reports/service'

/**
 * The chain's anchor (docs/audit.md): the head's number and hash written outside the database,
 * once a day and on demand, so that a rewrite of the events that also recomputed every later hash
 * shows: the rewritten chain no longer reaches the anchored hash at the anchored number.
 *
 * Where it goes, with what the app already has: the file store (MES_DATA_DIR/files, or the
 * S3-compatible bucket when MES_S3_* is set), key `audit-anchors/<UTC time>-<seq>.json`; and a
 * CHAIN_ANCHORED event carrying the same, which a data flow can send to another system's webhook.
 */

const ANCHOR_FORMAT = 'mes-event-chain-anchor/1'
const ANCHOR_DIR = 'audit-anchors'
/** One at a time across instances: two instances must not both write the day's anchor. */
const ANCHOR_LOCK = sql`select pg_advisory_xact_lock(hashtext('mes.event_chain_anchor'))`

/** The anchor file's content, as `bun run verify-audit --anchor FILE` reads it back. */
export const AnchorFile = v.object({
  format: v.literal(ANCHOR_FORMAT, `format ${ANCHOR_FORMAT} expected`),
  seq: v.pipe(v.number(), v.integer(), v.minValue(0)),
  hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'hash: 64 hexadecimal digits')),
  at: v.string(),
})
export type AnchorFile = v.InferOutput<typeof AnchorFile>

/** Writes the anchor of the chain as it is now (every committed event linked first). */
export async function writeAnchor(svc: Pick<Services, 'db' | 'files' | 'clock'>, actor: Actor | null): Promise<ChainAnchor> {
  await chainCommittedEvents(svc.db)
  return svc.db.transaction().execute(async (trx) => {
    await ANCHOR_LOCK.execute(trx)
    return anchorIn(trx, svc, actor)
  })
}

/**
 * The daily anchor: written when none was written since midnight of the plant's day (time zone
 * of the server). Returns null when today's is there already. Safe with several instances.
 */
export async function anchorIfDue(svc: Pick<Services, 'db' | 'files' | 'clock'>): Promise<ChainAnchor | null> {
  await chainCommittedEvents(svc.db)
  return svc.db.transaction().execute(async (trx) => {
    await ANCHOR_LOCK.execute(trx)
    const now = svc.clock.now()
    const today = plantDay(now)
    const last = await trx
      .selectFrom('events')
      .select('created_at')
      .where('event_type', '=', 'CHAIN_ANCHORED')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    if (last && plantDay(last.created_at) === today) return null
    return anchorIn(trx, svc, null)
  })
}

const plantDay = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: plantTimeZone(), dateStyle: 'short' }).format(d)

async function anchorIn(trx: Db, svc: Pick<Services, 'files' | 'clock'>, actor: Actor | null): Promise<ChainAnchor> {
  const head = await trx.selectFrom('event_chain_head').select(['seq', 'hash']).executeTakeFirstOrThrow()
  const at = svc.clock.now()
  const seq = Number(head.seq)
  const file = `${ANCHOR_DIR}/${at.toISOString().replace(/[:.]/g, '-')}-${seq}.json`
  const content: AnchorFile = { format: ANCHOR_FORMAT, seq, hash: head.hash, at: at.toISOString() }
  // The file first: an anchor event always names a file that was written.
  await svc.files.put(file, new TextEncoder().encode(`${JSON.stringify(content, null, 2)}\n`))
  await appendEvent(trx, actor, { event_type: 'CHAIN_ANCHORED', subject_type: 'event_chain', subject_key: String(seq), data: { seq, hash: head.hash, file } }, at)
  return { seq, hash: head.hash, at: at.toISOString(), file }
}

/** Whether the chain still has the anchored hash at the anchored number (link 0 is the zero hash of the empty chain). */
export async function checkAnchor(db: Db, anchor: AnchorFile): Promise<AnchorCheck> {
  if (anchor.seq === 0) return { seq: 0, expected: anchor.hash, found: '0'.repeat(64), ok: anchor.hash === '0'.repeat(64) }
  const link = await db.selectFrom('event_chain').select('hash').where('seq', '=', anchor.seq).executeTakeFirst()
  const found = link?.hash ?? null
  return { seq: anchor.seq, expected: anchor.hash, found, ok: found === anchor.hash }
}

/** The one line verify-audit adds for an anchor. */
export function anchorVerdict(check: AnchorCheck, anchor: AnchorFile, lang: 'it' | 'en'): string {
  if (check.ok) {
    return lang === 'it'
      ? `ancora del ${anchor.at}: l'anello #${check.seq} ha ancora l'impronta ${check.expected.slice(0, 16)}…`
      : `anchor of ${anchor.at}: link #${check.seq} still has the hash ${check.expected.slice(0, 16)}…`
  }
  if (check.found === null) {
    return lang === 'it'
      ? `ancora del ${anchor.at}: l'anello #${check.seq} non esiste più (la catena è più corta)`
      : `anchor of ${anchor.at}: link #${check.seq} no longer exists (the chain is shorter)`
  }
  return lang === 'it'
    ? `ancora del ${anchor.at}: l'anello #${check.seq} ha un'impronta diversa (${check.found.slice(0, 16)}…, attesa ${check.expected.slice(0, 16)}…): la catena è stata riscritta`
    : `anchor of ${anchor.at}: link #${check.seq} has another hash (${check.found.slice(0, 16)}…, expected ${check.expected.slice(0, 16)}…): the chain was rewritten`
}

const ANCHOR_CHECK_MS = 10 * 60_000
/** The first look: not at the very start, when an instance is still being checked by its deployer. */
const FIRST_CHECK_MS = 30_000

/** Checks every 10 minutes (the first time 30 s after start) whether today's anchor is written. main.ts; returns a stop function. */
export function startDailyAnchor(svc: Pick<Services, 'db' | 'files' | 'clock'>, log: (line: string) => void): () => Promise<void> {
  let running: Promise<void> | null = null
  const tick = () => {
    if (running) return
    running = anchorIfDue(svc)
      .then((a) => {
        if (a) log(`event chain anchored: #${a.seq} ${a.hash} -> ${a.file}`)
      })
      .catch((e) => console.error('[anchor] failed:', e instanceof Error ? e.message : e))
      .finally(() => {
        running = null
      })
  }
  const first = setTimeout(tick, FIRST_CHECK_MS)
  const timer = setInterval(tick, ANCHOR_CHECK_MS)
  return async () => {
    clearTimeout(first)
    clearInterval(timer)
    await running
  }
}
