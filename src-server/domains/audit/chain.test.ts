import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { useHarness } from '../../test/harness'
import { chainCommittedEvents, startEventChainer, stopEventChainer } from '../events/chainer'
import { appendEvent } from '../events/service'
import { chainVerdict, verifyChain } from './chain'

const marker = (subject_key: string) => ({ event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key })

describe('event chain', () => {
  const h = useHarness()
  /** The walk once the chainer has linked everything committed (it runs in the background too). */
  const verified = async () => {
    await chainCommittedEvents(h.svc.db)
    return verifyChain(h.svc.db)
  }
  const eventCount = async () => Number((await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const eventId = async (subjectKey: string) =>
    Number((await h.svc.db.selectFrom('events').select('id').where('subject_key', '=', subjectKey).executeTakeFirstOrThrow()).id)
  /** What someone with the database's owner role could do behind the app's back. */
  const behindTheAppsBack = async (statements: string[]) => {
    await sql.raw('alter table events disable trigger user').execute(h.svc.db)
    await sql.raw('alter table event_chain disable trigger user').execute(h.svc.db)
    try {
      for (const s of statements) await sql.raw(s).execute(h.svc.db)
    } finally {
      await sql.raw('alter table events enable trigger user').execute(h.svc.db)
      await sql.raw('alter table event_chain enable trigger user').execute(h.svc.db)
    }
  }

  test('every event is linked once, numbered without holes, and the walk finds the chain intact', async () => {
    await appendEvent(h.svc.db, null, marker('first'))
    const check = await verified()
    expect(check).toMatchObject({ ok: true, events: await eventCount() })
    expect(chainVerdict(check, 'it')).toBe(`catena integra: ${await eventCount()} eventi`)
    expect(chainVerdict(check, 'en')).toBe(`chain intact: ${await eventCount()} events`)
  })

  test('a rolled back transaction leaves no link and no hole', async () => {
    const before = await verified()
    await h.svc.db
      .transaction()
      .execute(async (trx) => {
        await appendEvent(trx, null, marker('rolled-back'))
        throw new Error('refused')
      })
      .catch(() => {})
    await appendEvent(h.svc.db, null, marker('after-rollback'))
    const after = await verified()
    expect(after.ok).toBe(true)
    expect(after.events).toBe(before.events + 1)
  })

  // Fifty transactions at once need PostgreSQL (PGlite has one connection); CI and `bun run test` always have it.
  test.if(Boolean(process.env.TEST_DATABASE_URL))('50 concurrent writers leave one valid chain, numbered in commit order', async () => {
    const before = await eventCount()
    await Promise.all(
      Array.from({ length: 50 }, (_, w) =>
        h.svc.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 4; i++) await appendEvent(trx, null, marker(`writer-${w}-${i}`))
        }),
      ),
    )
    expect(await eventCount()).toBe(before + 200)
    expect(await verified()).toMatchObject({ ok: true, events: before + 200 })
  })

  test('an event committed but not linked yet is pending, not a break; the chainer links it', async () => {
    await stopEventChainer(h.svc.db)
    try {
      const before = await verified()
      await appendEvent(h.svc.db, null, marker('fresh'))
      const check = await verifyChain(h.svc.db)
      expect(check).toEqual({ ok: true, events: before.events, head_hash: (before as { head_hash: string }).head_hash, pending: 1 })
      expect(chainVerdict(check, 'it')).toBe(`catena integra: ${before.events} eventi (1 in attesa di concatenamento)`)
    } finally {
      startEventChainer(h.svc.db)
    }
    // The background chainer, nudged by the next append, links both without being asked.
    await appendEvent(h.svc.db, null, marker('fresh-2'))
    const deadline = Date.now() + 5_000
    let check = await verifyChain(h.svc.db)
    while (check.ok && check.pending > 0 && Date.now() < deadline) {
      await Bun.sleep(20)
      check = await verifyChain(h.svc.db)
    }
    expect(check).toMatchObject({ ok: true, events: await eventCount(), pending: 0 })
  })

  test('an event written where the chainer had already passed is named as unchained', async () => {
    await chainCommittedEvents(h.svc.db)
    // An event dated into a transaction that ended long ago: the chainer never looks there again.
    await behindTheAppsBack([
      `insert into events (event_type, subject_type, subject_key, data, xid) values ('PAUSED_OFFLINE', 'job', 'forged', '{}', '3'::xid8)`,
    ])
    const id = await eventId('forged')
    await chainCommittedEvents(h.svc.db)
    const check = await verifyChain(h.svc.db)
    expect(check).toMatchObject({ ok: false, first_break: { event_id: id, reason: 'unchained' } })
    expect(chainVerdict(check, 'en')).toContain(`(event ${id}): recorded outside the chain`)
    // Put back so the tests after this one start from an intact chain.
    await behindTheAppsBack([`delete from events where id = ${id}`])
  })

  test('the database refuses to change, delete or truncate events and links', async () => {
    const id = await eventId('first')
    for (const statement of [
      `update events set data = '{}' where id = ${id}`,
      `delete from events where id = ${id}`,
      'truncate events cascade',
      `update event_chain set hash = 'x' where event_id = ${id}`,
      `delete from event_chain where event_id = ${id}`,
      'truncate event_chain',
    ]) {
      expect(sql.raw(statement).execute(h.svc.db)).rejects.toThrow(/append-only/)
    }
    expect((await verified()).ok).toBe(true)
  })

  test('an event changed behind the app’s back is named, and the chain holds again once it is put back', async () => {
    await appendEvent(h.svc.db, null, { ...marker('to-edit'), data: { quantity: 5 } })
    await appendEvent(h.svc.db, null, marker('after-edit'))
    const id = await eventId('to-edit')
    // Once linked: a change before its link would be hashed as it reads (docs/audit.md, the window).
    await chainCommittedEvents(h.svc.db)
    await behindTheAppsBack([`update events set data = '{"quantity": 50}' where id = ${id}`])
    const check = await verified()
    expect(check).toMatchObject({ ok: false, first_break: { event_id: id, reason: 'changed' } })
    expect(chainVerdict(check, 'it')).toContain(`(evento ${id}): modificato dopo la registrazione`)
    await behindTheAppsBack([`update events set data = '{"quantity": 5}' where id = ${id}`])
    expect((await verified()).ok).toBe(true)
  })

  test('an event removed with its link is named by the number that went missing', async () => {
    await appendEvent(h.svc.db, null, marker('to-delete'))
    await appendEvent(h.svc.db, null, marker('after-delete'))
    const id = await eventId('to-delete')
    await chainCommittedEvents(h.svc.db)
    const link = await h.svc.db.selectFrom('event_chain').select('seq').where('event_id', '=', id).executeTakeFirstOrThrow()
    await behindTheAppsBack([`delete from event_chain where event_id = ${id}`, `delete from events where id = ${id}`])
    const check = await verified()
    expect(check).toMatchObject({ ok: false, events: Number(link.seq) - 1, first_break: { seq: Number(link.seq), reason: 'missing' } })
    expect(chainVerdict(check, 'en')).toBe(`chain broken at link #${link.seq}: removed; ${Number(link.seq) - 1} intact events before it`)
  })
})
