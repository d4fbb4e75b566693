import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { CLIENT_EVENT_TYPES } from '../../../src/domains/events/schemas'
import { adminKey, adminToken, appCode, countOf, MINUTE, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, type Harness, useHarness } from '../../test/harness'

const lastEvent = (h: Harness, type: string) =>
  h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id', 'desc').executeTakeFirstOrThrow()

describe('events: who, which session and when (server time)', () => {
  const h = useHarness()

  test('login and logout are recorded with the user, the session and the clock time', async () => {
    h.clock.advance(3 * MINUTE)
    const login = await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    const token: string = login.body.detail.token
    const sessionId = token.split('.')[0]
    const loginAt = h.clock.now()
    const ev = await lastEvent(h, 'LOGIN')
    expect(ev).toMatchObject({ user_id: await adminKey(h), session_id: sessionId, subject_type: 'user', subject_key: await adminKey(h) })
    expect(ev.created_at.getTime()).toBe(loginAt.getTime())

    h.clock.advance(7 * MINUTE)
    expect((await h.request('POST', '/api/logout', { token })).status).toBe(200)
    const out = await lastEvent(h, 'LOGOUT')
    expect(out).toMatchObject({ user_id: await adminKey(h), session_id: sessionId })
    expect(out.created_at.getTime()).toBe(loginAt.getTime() + 7 * MINUTE)
  })

  test('a failed login records no event', async () => {
    const before = await countOf(h, 'events')
    expect((await h.request('POST', '/api/login', { body: { username: 'admin', password: 'wrong-one' } })).status).toBe(401)
    expect(await countOf(h, 'events')).toBe(before)
  })

  test('user create and update are recorded by the acting admin session', async () => {
    const token = await adminToken(h)
    h.clock.advance(MINUTE)
    const created = await h.request('POST', '/api/user', { token, body: { username: 'evented', scope: 'operator' } })
    expect(created.status).toBe(201)
    const key = created.body.detail._key
    const ev = await lastEvent(h, 'USER_CREATED')
    expect(ev).toMatchObject({ user_id: await adminKey(h), session_id: token.split('.')[0], subject_type: 'user', subject_key: key })
    expect(ev.created_at.getTime()).toBe(h.clock.now().getTime())
    // The temporary password is never part of an event.
    expect(JSON.stringify(ev.data)).not.toContain(created.body.detail.temp_psw)

    h.clock.advance(MINUTE)
    expect((await h.request('PATCH', `/api/user/${key}`, { token, body: { surname: 'Bianchi' } })).status).toBe(200)
    const up = await lastEvent(h, 'USER_UPDATED')
    expect(up).toMatchObject({ user_id: await adminKey(h), session_id: token.split('.')[0], subject_key: key })
    expect(up.created_at.getTime()).toBe(h.clock.now().getTime())
    expect(JSON.stringify(up.data)).toContain('surname')
  })

  test('POST event stores the payload with server identity and time (201)', async () => {
    const token = await adminToken(h)
    h.clock.advance(MINUTE)
    const res = await h.request('POST', '/api/event', {
      token,
      body: {
        event_type: 'PAUSED_OFFLINE',
        subject_type: 'job',
        subject_key: 'J-42',
        data: { reason: 'network', seconds: 30 },
      },
    })
    expect(res.status).toBe(201)
    const ev = await lastEvent(h, 'PAUSED_OFFLINE')
    expect(ev).toMatchObject({
      user_id: await adminKey(h),
      session_id: token.split('.')[0],
      subject_type: 'job',
      subject_key: 'J-42',
      data: { reason: 'network', seconds: 30, reported_by_client: true },
    })
    expect(ev.created_at.getTime()).toBe(h.clock.now().getTime())
    // Who and when are the server's: a client claiming them is refused, nothing written.
    const before = await countOf(h, 'events')
    const claimed = await h.request('POST', '/api/event', {
      token,
      body: { event_type: 'PAUSED_OFFLINE', user_id: 'someone-else', created_at: '1999-01-01T00:00:00Z', timestamp: 0 },
    })
    expect(claimed.status).toBe(400)
    expect(claimed.body.detail.code).toBe('INVALID_INPUT')
    expect(await countOf(h, 'events')).toBe(before)
  })

  test('tRPC events.record does the same', async () => {
    const token = await adminToken(h)
    h.clock.advance(MINUTE)
    const res = await trpcCall(h, 'events.record', 'mutation', { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: 'J-43' }, { token })
    expect(res.status).toBe(200)
    const ev = await lastEvent(h, 'PAUSED_OFFLINE')
    expect(ev.subject_key).toBe('J-43')
    expect(ev.session_id).toBe(token.split('.')[0]!)
    expect(ev.created_at.getTime()).toBe(h.clock.now().getTime())
  })

  test('a type the server records itself (JOB_STARTED, BACK_ONLINE ...) is refused with 400 EVENT_TYPE_NOT_REPORTABLE; nothing is written', async () => {
    const token = await adminToken(h)
    const before = await countOf(h, 'events')
    for (const event_type of ['JOB_STARTED', 'JOB_PAUSE_FORCED', 'BACK_ONLINE', 'ISSUE_OPENED', 'LOGIN', 'paused_offline']) {
      const res = await h.request('POST', '/api/event', { token, body: { event_type, subject_type: 'job', subject_key: 'J-44' } })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('EVENT_TYPE_NOT_REPORTABLE')
      expect(res.body.detail.message).toContain(event_type)
      expect(res.body.detail.message).toContain('PAUSED_OFFLINE')
      const viaTrpc = await trpcCall(h, 'events.record', 'mutation', { event_type }, { token })
      expect(viaTrpc.status).toBe(400)
      expect(appCode(viaTrpc.body)).toBe('EVENT_TYPE_NOT_REPORTABLE')
    }
    expect(await countOf(h, 'events')).toBe(before)
    expect(await h.svc.db.selectFrom('events').select('id').where('subject_key', '=', 'J-44').execute()).toHaveLength(0)
  })

  test('OpenAPI lists the event types a client may report', async () => {
    const res = await h.request('GET', '/api/openapi.json')
    expect(res.status).toBe(200)
    const body = res.body.paths['/event'].post.requestBody.content['application/json'].schema
    expect(body.properties.event_type.enum).toEqual([...CLIENT_EVENT_TYPES])
  })

  test('a bad event is 400 naming the field, and nothing is written; without sign-in 401', async () => {
    const token = await adminToken(h)
    const before = await countOf(h, 'events')
    for (const [body, field] of [
      [{}, 'event_type'],
      [{ event_type: '' }, 'event_type'],
      [{ event_type: '1starts-with-digit' }, 'event_type'],
      [{ event_type: 'X', data: 'not an object' }, 'data'],
      [{ event_type: 'X', subject_key: 'k'.repeat(101) }, 'subject_key'],
    ] as const) {
      const res = await h.request('POST', '/api/event', { token, body })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
      expect(res.body.detail.message).toContain(field)
    }
    expect((await h.request('POST', '/api/event', { body: { event_type: 'ANON' } })).status).toBe(401)
    expect(await countOf(h, 'events')).toBe(before)
  })

  test('events are append-only: the database refuses UPDATE and DELETE', async () => {
    const before = await countOf(h, 'events')
    expect(before).toBeGreaterThan(0)
    const first = await h.svc.db.selectFrom('events').selectAll().orderBy('id').executeTakeFirstOrThrow()
    await expect(h.svc.db.updateTable('events').set({ event_type: 'TAMPERED' } as never).where('id', '=', first.id).execute()).rejects.toThrow(
      /append-only/,
    )
    await expect(h.svc.db.deleteFrom('events').where('id', '=', first.id).execute()).rejects.toThrow(/append-only/)
    await expect(sql`delete from events`.execute(h.svc.db)).rejects.toThrow(/append-only/)
    expect(await countOf(h, 'events')).toBe(before)
    const again = await h.svc.db.selectFrom('events').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
    expect(again.event_type).toBe(first.event_type)
  })
})
