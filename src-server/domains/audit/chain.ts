import { sql } from 'kysely'
import type { ChainCheck } from '../../../src/domains/audit/schemas'
import type { Db } from '../../db/schema'
import { chainCommittedEvents } from '../events/chainer'

/** Links read per round: the walk holds little memory over millions of events. */
const PAGE = 5_000

const ZERO_HASH = '0'.repeat(64)

type ChainBreak = Extract<ChainCheck, { ok: false }>['first_break']

const sha256Hex = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')

/**
 * Walks the event chain from its first link: each link must follow the previous one (no number
 * skipped), carry the previous link's hash, and hash the event as it reads now. The first link that
 * does not hold names the event changed (`changed`), removed (`missing`: a number skipped), or a
 * chain rebuilt around it (`relinked`); an event with no link that the chainer will never link is
 * `unchained` (written behind its back: the chainer had passed its transaction); the head must
 * match the last link (`head`). Committed events the chainer has not reached yet are counted as
 * `pending`, not as a break. The hashes are recomputed here, not by the database, from the text
 * `event_chain_text` gives of each event. One snapshot (REPEATABLE READ) for the whole walk: links
 * made meanwhile are not half seen.
 */
/**
 * The admin screen's check (`GET audit-chain`): links what has committed first (what the chainer
 * would do within milliseconds), so the answer covers every event written before the click.
 * `bun run verify-audit` walks without writing (`verifyChain`) and counts those as pending.
 */
export async function checkChainNow(db: Db): Promise<ChainCheck> {
  await chainCommittedEvents(db)
  return verifyChain(db)
}

export function verifyChain(db: Db): Promise<ChainCheck> {
  return db.transaction().setIsolationLevel('repeatable read').execute((trx) => walk(trx))
}

async function walk(db: Db): Promise<ChainCheck> {
  let expectedSeq = 1
  let prevHash = ZERO_HASH
  for (;;) {
    const rows = await db
      .selectFrom('event_chain as c')
      .leftJoin('events as e', 'e.id', 'c.event_id')
      .select(['c.seq', 'c.event_id', 'c.prev_hash', 'c.hash', sql<string | null>`case when e.id is null then null else event_chain_text(e) end`.as('text')])
      .where('c.seq', '>=', expectedSeq)
      .orderBy('c.seq')
      .limit(PAGE)
      .execute()
    for (const row of rows) {
      const seq = Number(row.seq)
      const eventId = Number(row.event_id)
      if (seq !== expectedSeq) return broken(expectedSeq - 1, { seq: expectedSeq, event_id: null, reason: 'missing' })
      if (row.text === null) return broken(seq - 1, { seq, event_id: eventId, reason: 'missing' })
      if (row.prev_hash !== prevHash) return broken(seq - 1, { seq, event_id: eventId, reason: 'relinked' })
      if (sha256Hex(prevHash + row.text) !== row.hash) return broken(seq - 1, { seq, event_id: eventId, reason: 'changed' })
      prevHash = row.hash
      expectedSeq++
    }
    if (rows.length < PAGE) break
  }
  const events = expectedSeq - 1
  const head = await db.selectFrom('event_chain_head').select(['seq', 'hash', 'watermark']).executeTakeFirst()
  if (!head || Number(head.seq) !== events || head.hash !== prevHash) {
    return broken(events, { seq: Number(head?.seq ?? 0), event_id: null, reason: 'head' })
  }
  // An event with no link is fresh while its transaction is at or above the chainer's watermark
  // (the chainer has not looked at it yet); below it, or with no transaction recorded, the chainer
  // passed it by: it was written around the chain.
  const unlinked = () => db.selectFrom('events as e').leftJoin('event_chain as c', 'c.event_id', 'e.id').where('c.seq', 'is', null)
  const unchained = await unlinked()
    .select('e.id')
    .where((eb) => eb.or([eb('e.xid', 'is', null), sql<boolean>`e.xid < ${head.watermark}::xid8`]))
    .orderBy('e.id')
    .limit(1)
    .executeTakeFirst()
  if (unchained) return broken(events, { seq: events + 1, event_id: Number(unchained.id), reason: 'unchained' })
  const pending = await unlinked()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return { ok: true, events, head_hash: prevHash, pending: Number(pending.n) }
}

const broken = (events: number, first_break: ChainBreak): ChainCheck => ({ ok: false, events, first_break })

const REASONS = {
  it: {
    changed: 'modificato dopo la registrazione',
    missing: 'rimosso',
    relinked: 'catena ricostruita attorno ad esso',
    unchained: 'registrato fuori dalla catena',
    head: 'la testa della catena non corrisponde all’ultimo anello',
  },
  en: {
    changed: 'changed after it was recorded',
    missing: 'removed',
    relinked: 'chain rebuilt around it',
    unchained: 'recorded outside the chain',
    head: 'the chain head does not match its last link',
  },
} as const

/** The one-line answer of `bun run verify-audit`. */
export function chainVerdict(check: ChainCheck, lang: 'it' | 'en'): string {
  if (check.ok) {
    const pending = check.pending === 0 ? '' : lang === 'it' ? ` (${check.pending} in attesa di concatenamento)` : ` (${check.pending} waiting to be linked)`
    return (lang === 'it' ? `catena integra: ${check.events} eventi` : `chain intact: ${check.events} events`) + pending
  }
  const b = check.first_break
  const what = b.event_id === null ? `#${b.seq}` : lang === 'it' ? `#${b.seq} (evento ${b.event_id})` : `#${b.seq} (event ${b.event_id})`
  return lang === 'it'
    ? `catena interrotta all’anello ${what}: ${REASONS.it[b.reason]}; ${check.events} eventi integri prima`
    : `chain broken at link ${what}: ${REASONS.en[b.reason]}; ${check.events} intact events before it`
}
