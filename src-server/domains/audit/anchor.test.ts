import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { adminToken, quickUser } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { chainCommittedEvents } from '../events/chainer'
import { appendEvent } from '../events/service'
import { type AnchorFile, anchorIfDue, writeAnchor } from './anchor'
import { verifyAudit } from './verify-command'

describe('the chain anchor', () => {
  const h = useHarness()
  const readAnchor = async (file: string) => JSON.parse(await (await h.svc.files.get(file))!.text()) as AnchorFile
  const anchoredEvents = () => h.svc.db.selectFrom('events').select(['data', 'user_id']).where('event_type', '=', 'CHAIN_ANCHORED').orderBy('id').execute()

  test('on demand (admin and audit): the head as a file in the file store and a CHAIN_ANCHORED event', async () => {
    await appendEvent(h.svc.db, null, { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: 'before-anchor' })
    const admin = await adminToken(h)
    const res = await h.request('POST', '/api/audit-chain/anchor', { token: admin, body: {} })
    expect(res.status).toBe(200)
    const anchor = res.body.detail
    const head = await h.svc.db.selectFrom('event_chain_head').select(['seq', 'hash']).executeTakeFirstOrThrow()
    // Every event committed before the call is inside the anchor (the chainer linked them first).
    expect(anchor.seq).toBeGreaterThanOrEqual(1)
    expect(anchor.file).toMatch(/^audit-anchors\/2026-01-05T08-00-00-000Z-\d+\.json$/)
    const file = await readAnchor(anchor.file)
    expect(file).toEqual({ format: 'mes-event-chain-anchor/1', seq: anchor.seq, hash: anchor.hash, at: '2026-01-05T08:00:00.000Z' })
    const link = await h.svc.db.selectFrom('event_chain').select('hash').where('seq', '=', anchor.seq).executeTakeFirstOrThrow()
    expect(link.hash).toBe(anchor.hash)
    expect(Number(head.seq)).toBeGreaterThanOrEqual(anchor.seq)
    const events = await anchoredEvents()
    expect(events.at(-1)?.data).toEqual({ seq: anchor.seq, hash: anchor.hash, file: anchor.file })
    expect(events.at(-1)?.user_id).not.toBeNull()

    const operator = await quickUser(h, 'anchor.op', 'operator')
    expect((await h.request('POST', '/api/audit-chain/anchor', { token: operator.token, body: {} })).status).toBe(403)
  })

  test('once a day: a second look the same day writes nothing, the next day writes again', async () => {
    h.clock.set('2026-01-06T09:00:00Z')
    const first = await anchorIfDue(h.svc)
    expect(first).not.toBeNull()
    h.clock.advance(3 * 3600_000)
    expect(await anchorIfDue(h.svc)).toBeNull()
    h.clock.advance(24 * 3600_000)
    const next = await anchorIfDue(h.svc)
    expect(next).not.toBeNull()
    expect(next!.seq).toBeGreaterThan(first!.seq)
    expect(await h.svc.files.get(next!.file)).not.toBeNull()
  })

  test('verify-audit with an anchor: holds while the chain reaches it, names the rewrite when it does not', async () => {
    const anchor = await writeAnchor(h.svc, null)
    const text = await (await h.svc.files.get(anchor.file))!.text()
    await appendEvent(h.svc.db, null, { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: 'after-anchor' })
    await chainCommittedEvents(h.svc.db)
    const good = await verifyAudit(h.svc.db, text, 'it')
    expect(good.ok).toBe(true)
    expect(good.lines[1]).toBe(`ancora del ${anchor.at}: l'anello #${anchor.seq} ha ancora l'impronta ${anchor.hash.slice(0, 16)}…`)

    // What only an anchor shows: an event rewritten with every later hash recomputed (the walk alone finds it intact).
    const victim = await h.svc.db.selectFrom('event_chain').select(['seq', 'event_id']).where('seq', '=', 2).executeTakeFirstOrThrow()
    await rewriteFrom(victim.seq, victim.event_id)
    const bad = await verifyAudit(h.svc.db, text, 'en')
    expect(bad.lines[0]).toMatch(/^chain intact: /)
    expect(bad.ok).toBe(false)
    expect(bad.lines[1]).toContain(`link #${anchor.seq} has another hash`)
    expect(bad.lines[1]).toContain('the chain was rewritten')

    await expect(verifyAudit(h.svc.db, '{"seq": 1}', 'en')).rejects.toThrow(/not an event chain anchor/)
    await expect(verifyAudit(h.svc.db, 'nonsense', 'it')).rejects.toThrow('il file di ancora non è JSON')
  })

  /** The database owner's rewrite: one event changed, its link and every later one rehashed, the head too. */
  async function rewriteFrom(seq: number, eventId: number) {
    await sql.raw('alter table events disable trigger user').execute(h.svc.db)
    await sql.raw('alter table event_chain disable trigger user').execute(h.svc.db)
    try {
      await sql`update events set data = '{"rewritten": true}' where id = ${eventId}`.execute(h.svc.db)
      await sql`do $$
        declare l record; h text;
        begin
          select hash into h from event_chain where seq = ${sql.lit(seq - 1)};
          for l in select c.seq, e from event_chain c join events e on e.id = c.event_id where c.seq >= ${sql.lit(seq)} order by c.seq loop
            update event_chain set prev_hash = h, hash = encode(sha256(convert_to(h || event_chain_text(l.e), 'UTF8')), 'hex') where seq = l.seq
              returning hash into h;
          end loop;
          update event_chain_head set hash = h;
        end $$`.execute(h.svc.db)
    } finally {
      await sql.raw('alter table events enable trigger user').execute(h.svc.db)
      await sql.raw('alter table event_chain enable trigger user').execute(h.svc.db)
    }
  }
})
