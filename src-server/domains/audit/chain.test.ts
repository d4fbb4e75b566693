import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { useHarness } from '../../test/harness'
import { appendEvent } from '../events/service'
import { chainVerdict, verifyChain } from './chain'

const marker = (subject_key: string) => ({ event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key })

describe('event chain', () => {
  const h = useHarness()
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
    const check = await verifyChain(h.svc.db)
    expect(check).toMatchObject({ ok: true, events: await eventCount() })
    expect(chainVerdict(check, 'it')).toBe(`catena integra: ${await eventCount()} eventi`)
    expect(chainVerdict(check, 'en')).toBe(`chain intact: ${await eventCount()} events`)
  })

  test('a rolled back transaction leaves no link and no hole', async () => {
    const before = await verifyChain(h.svc.db)
    await h.svc.db
      .transaction()
      .execute(async (trx) => {
        await appendEvent(trx, null, marker('rolled-back'))
        throw new Error('refused')
      })
      .catch(() => {})
    await appendEvent(h.svc.db, null, marker('after-rollback'))
    const after = await verifyChain(h.svc.db)
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
    expect(await verifyChain(h.svc.db)).toMatchObject({ ok: true, events: before + 200 })
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
    expect((await verifyChain(h.svc.db)).ok).toBe(true)
  })

  test('an event changed behind the app’s back is named, and the chain holds again once it is put back', async () => {
    await appendEvent(h.svc.db, null, { ...marker('to-edit'), data: { quantity: 5 } })
    await appendEvent(h.svc.db, null, marker('after-edit'))
    const id = await eventId('to-edit')
    await behindTheAppsBack([`update events set data = '{"quantity": 50}' where id = ${id}`])
    const check = await verifyChain(h.svc.db)
    expect(check).toMatchObject({ ok: false, first_break: { event_id: id, reason: 'changed' } })
    expect(chainVerdict(check, 'it')).toContain(`(evento ${id}): modificato dopo la registrazione`)
    await behindTheAppsBack([`update events set data = '{"quantity": 5}' where id = ${id}`])
    expect((await verifyChain(h.svc.db)).ok).toBe(true)
  })

  test('an event removed with its link is named by the number that went missing', async () => {
    await appendEvent(h.svc.db, null, marker('to-delete'))
    await appendEvent(h.svc.db, null, marker('after-delete'))
    const id = await eventId('to-delete')
    const link = await h.svc.db.selectFrom('event_chain').select('seq').where('event_id', '=', id).executeTakeFirstOrThrow()
    await behindTheAppsBack([`delete from event_chain where event_id = ${id}`, `delete from events where id = ${id}`])
    const check = await verifyChain(h.svc.db)
    expect(check).toMatchObject({ ok: false, events: Number(link.seq) - 1, first_break: { seq: Number(link.seq), reason: 'missing' } })
    expect(chainVerdict(check, 'en')).toBe(`chain broken at link #${link.seq}: removed; ${Number(link.seq) - 1} intact events before it`)
  })
})
