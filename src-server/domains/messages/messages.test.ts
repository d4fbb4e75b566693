import { beforeAll, describe, expect, test } from 'bun:test'
import type { MessageContext } from '../../../src/domains/messages/schemas'
import type { Actor } from '../../context'
import { appCode, MINUTE, MISSING_UUID, quickUser, sessionFor, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { createWorkOrder } from '../work-orders/create'
import { makeProduct } from '../work-orders/test-fixtures'
import { editMessage, markThreadRead, messageThread, postMessage, removeMessage, unreadCounts } from './service'

const actorOf = (u: { key: string }, scope: string): Actor => ({ userId: u.key, sessionId: null, scope, tokenId: null })

describe('message threads', () => {
  const h = useHarness()
  let op: Actor
  let prod: Actor
  let job: MessageContext
  let wo: MessageContext
  let otherWo: MessageContext

  beforeAll(async () => {
    const o = await quickUser(h, 'marco', 'operator')
    await h.svc.db.updateTable('users').set({ name: 'Marco', surname: 'Rossi' }).where('id', '=', o.key).execute()
    const p = await quickUser(h, 'luca', 'production')
    op = actorOf(o, 'operator')
    prod = actorOf(p, 'production')
    const product = await makeProduct(h.svc.db, { code: 'MSG-A', phases: ['Montaggio'] })
    const made = await createWorkOrder(h.svc, prod, { product_key: product.key, quantity: 4, phase_operators: [{ phase_key: product.phases[0]!.key, operator_key: o.key }] })
    const other = await createWorkOrder(h.svc, prod, { product_key: product.key, quantity: 2, phase_operators: [{ phase_key: product.phases[0]!.key, operator_key: o.key }] })
    job = { context_type: 'job', context_key: made.phases[0]!.jobs[0]!._key }
    wo = { context_type: 'work_order', context_key: made._key }
    otherWo = { context_type: 'work_order', context_key: other._key }
  })

  /** Each message a minute after the previous one: the order and the read marks are by time. */
  const post = (actor: Actor, ctx: MessageContext, body: string) => {
    h.clock.advance(MINUTE)
    return postMessage(h.svc, actor, { ...ctx, body })
  }
  const eventsOf = (key: string) =>
    h.svc.db.selectFrom('events').select(['event_type', 'subject_type', 'user_id', 'data']).where('subject_key', '=', key).orderBy('id').execute()
  const unread = async (actor: Actor, ...contexts: MessageContext[]) => (await unreadCounts(h.svc, actor, contexts)).map((c) => c.unread)

  test('post: trimmed body, author name, own flag, an event with the context', async () => {
    const row = await post(op, job, '  Manca la guarnizione sul lotto 3  ')
    expect(row).toMatchObject({
      ...job,
      author_key: op.userId,
      author_name: 'Marco Rossi',
      body: 'Manca la guarnizione sul lotto 3',
      created_at: h.clock.now().getTime(),
      edited_at: null,
      deleted: false,
      own: true,
    })
    expect(await eventsOf(row._key)).toEqual([{ event_type: 'MESSAGE_POSTED', subject_type: 'message', user_id: op.userId, data: { ...job } }])
    // Someone else sees it as not theirs; a user without name and surname shows the username.
    const thread = await messageThread(h.svc, prod, job)
    expect(thread.rows.map((r) => [r.body, r.own])).toEqual([['Manca la guarnizione sul lotto 3', false]])
    expect((await post(prod, job, 'Arriva tra 10 minuti')).author_name).toBe('luca')
  })

  test('post refusals: empty body, unknown job or work order; nothing written', async () => {
    const before = await h.svc.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const refusals: [() => Promise<unknown>, number, string][] = [
      [() => postMessage(h.svc, op, { ...job, body: '   \n ' }), 400, 'MESSAGE_BODY_REQUIRED'],
      [() => postMessage(h.svc, op, { context_type: 'job', context_key: MISSING_UUID, body: 'x' }), 404, 'UNKNOWN_JOB'],
      [() => postMessage(h.svc, op, { context_type: 'work_order', context_key: MISSING_UUID, body: 'x' }), 404, 'UNKNOWN_WORK_ORDER'],
      // A work order key is not a job key.
      [() => postMessage(h.svc, op, { context_type: 'job', context_key: wo.context_key, body: 'x' }), 404, 'UNKNOWN_JOB'],
      [() => messageThread(h.svc, op, { context_type: 'work_order', context_key: MISSING_UUID }), 404, 'UNKNOWN_WORK_ORDER'],
    ]
    for (const [call, status, code] of refusals) await expect(call()).rejects.toMatchObject({ status, appCode: code })
    const after = await h.svc.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  test('edit: own and not deleted only; marks edited, one event; the same text changes nothing', async () => {
    const row = await post(op, wo, 'Serve un cacciavite')
    h.clock.advance(MINUTE)
    const edited = await editMessage(h.svc, op, { key: row._key, body: ' Serve un cacciavite torx ' })
    expect(edited).toMatchObject({ body: 'Serve un cacciavite torx', edited_at: h.clock.now().getTime(), created_at: row.created_at })
    await editMessage(h.svc, op, { key: row._key, body: 'Serve un cacciavite torx' })
    expect((await eventsOf(row._key)).map((e) => [e.event_type, e.data])).toEqual([
      ['MESSAGE_POSTED', { ...wo }],
      ['MESSAGE_UPDATED', { ...wo, changed: ['body'], changes: { body: { from: 'Serve un cacciavite', to: 'Serve un cacciavite torx' } } }],
    ])
    await expect(editMessage(h.svc, prod, { key: row._key, body: 'mio' })).rejects.toMatchObject({ status: 403, appCode: 'MESSAGE_NOT_OWN' })
    await expect(editMessage(h.svc, op, { key: row._key, body: ' ' })).rejects.toMatchObject({ status: 400, appCode: 'MESSAGE_BODY_REQUIRED' })
    await expect(editMessage(h.svc, op, { key: MISSING_UUID, body: 'x' })).rejects.toMatchObject({ status: 404, appCode: 'NOT_FOUND' })
  })

  test('remove: own only; the message keeps its place without text; no edit or second delete after', async () => {
    const first = await post(prod, otherWo, 'Primo')
    const gone = await post(prod, otherWo, 'Da cancellare')
    const last = await post(op, otherWo, 'Ultimo')
    await expect(removeMessage(h.svc, op, gone._key)).rejects.toMatchObject({ status: 403, appCode: 'MESSAGE_NOT_OWN' })
    h.clock.advance(MINUTE)
    expect(await removeMessage(h.svc, prod, gone._key)).toEqual({ _key: gone._key })
    const thread = await messageThread(h.svc, op, otherWo)
    expect(thread.rows.map((r) => [r._key, r.body, r.deleted])).toEqual([
      [first._key, 'Primo', false],
      [gone._key, '', true],
      [last._key, 'Ultimo', false],
    ])
    const stored = await h.svc.db.selectFrom('messages').select(['body', 'deleted_at']).where('id', '=', gone._key).executeTakeFirstOrThrow()
    expect(stored).toEqual({ body: '', deleted_at: h.clock.now() })
    expect((await eventsOf(gone._key)).map((e) => e.event_type)).toEqual(['MESSAGE_POSTED', 'MESSAGE_DELETED'])
    await expect(removeMessage(h.svc, prod, gone._key)).rejects.toMatchObject({ status: 409, appCode: 'MESSAGE_DELETED' })
    await expect(editMessage(h.svc, prod, { key: gone._key, body: 'di nuovo' })).rejects.toMatchObject({ status: 409, appCode: 'MESSAGE_DELETED' })
  })

  test('thread: oldest first; reading does not mark read; markRead moves the mark to the newest message', async () => {
    const ctx: MessageContext = { context_type: 'job', context_key: (await freshJob()).context_key }
    const bodies = ['uno', 'due', 'tre']
    for (const b of bodies) await post(prod, ctx, b)
    const thread = await messageThread(h.svc, op, ctx)
    expect(thread).toMatchObject({ last_read_at: null })
    expect(thread.rows.map((r) => r.body)).toEqual(bodies)
    expect(await unread(op, ctx)).toEqual([3])
    h.clock.advance(MINUTE)
    const { last_read_at } = await markThreadRead(h.svc, op, ctx)
    expect(last_read_at).toBe(thread.rows.at(-1)!.created_at)
    expect((await messageThread(h.svc, op, ctx)).last_read_at).toBe(last_read_at)
    expect(await unread(op, ctx)).toEqual([0])
    // An empty thread is marked read as of now.
    const empty = await freshJob()
    expect(await markThreadRead(h.svc, op, empty)).toEqual({ last_read_at: h.clock.now().getTime() })
  })

  test('unread: others only, after the read mark, deleted ones excluded, several contexts at once', async () => {
    const a = await freshJob()
    const b = await freshJob()
    const never = await freshJob()
    await post(op, a, 'mio: non conta')
    await post(prod, a, 'uno')
    const removed = await post(prod, a, 'cancellato')
    await removeMessage(h.svc, prod, removed._key)
    await post(prod, b, 'due')
    expect(await unreadCounts(h.svc, op, [a, b, never])).toEqual([
      { ...a, unread: 1 },
      { ...b, unread: 1 },
      { ...never, unread: 0 },
    ])
    await markThreadRead(h.svc, op, a)
    await post(prod, a, 'dopo la lettura')
    expect(await unread(op, a, b)).toEqual([1, 1])
    // Posting marks the thread read for the author: what came before is read.
    await post(op, b, 'risposta')
    expect(await unread(op, a, b)).toEqual([1, 0])
    // The other side: production posted last in a (read up to there); the operator's reply in b is new.
    expect(await unread(prod, a, b)).toEqual([0, 1])
  })

  test("an operator takes part only in the threads of their own (or unassigned) jobs and those jobs' work orders", async () => {
    const stranger = actorOf(await quickUser(h, 'giulia', 'operator'), 'operator')
    const refusal = async (p: Promise<unknown>) => p.then(() => 'accepted', (e) => (e as { appCode?: string }).appCode)
    expect(await refusal(messageThread(h.svc, stranger, job))).toBe('JOB_NOT_YOURS')
    expect(await refusal(postMessage(h.svc, stranger, { ...wo, body: 'Posso aiutare?' }))).toBe('JOB_NOT_YOURS')
    expect(await refusal(markThreadRead(h.svc, stranger, wo))).toBe('JOB_NOT_YOURS')
    // Once the job is unassigned, any operator may take it, and talk about it.
    await h.svc.db.updateTable('jobs').set({ operator_id: null }).where('id', '=', job.context_key).execute()
    expect((await messageThread(h.svc, stranger, job)).rows.length).toBeGreaterThan(0)
    expect(await refusal(messageThread(h.svc, stranger, wo))).toBe('accepted')
    await h.svc.db.updateTable('jobs').set({ operator_id: op.userId }).where('id', '=', job.context_key).execute()
  })

  test("unread: an operator's counts stay 0 in threads they do not take part in", async () => {
    const stranger = actorOf(await quickUser(h, 'elena', 'operator'), 'operator')
    const mine = await freshJob()
    const { work_order_id } = await h.svc.db.selectFrom('jobs').select('work_order_id').where('id', '=', mine.context_key).executeTakeFirstOrThrow()
    const mineWo: MessageContext = { context_type: 'work_order', context_key: work_order_id }
    await post(prod, mine, 'per il job')
    await post(prod, mineWo, "per l'ordine")
    expect(await unread(op, mine, mineWo)).toEqual([1, 1])
    expect(await unread(stranger, mine, mineWo)).toEqual([0, 0])
    // Unassigned, the job (and so its work order) is everyone's: the counts show.
    await h.svc.db.updateTable('jobs').set({ operator_id: null }).where('id', '=', mine.context_key).execute()
    expect(await unread(stranger, mine, mineWo)).toEqual([1, 1])
  })

  test('tRPC: operators, production and quality read and post; a library user is refused', async () => {
    // Sessions made now: the clock moved on past the idle lock of earlier ones.
    const opToken = await sessionFor(h, op.userId)
    const quality = await quickUser(h, 'paolo', 'quality')
    const library = await quickUser(h, 'sara', 'library')
    for (const token of [opToken, quality.token]) {
      h.clock.advance(1000)
      const posted = await trpcCall(h, 'messages.post', 'mutation', { ...wo, body: 'Ciao' }, { token })
      expect(posted.status).toBe(200)
      const thread = await trpcCall(h, 'messages.thread', 'query', wo, { token })
      expect(thread.body.result.data.rows.at(-1)).toMatchObject({ body: 'Ciao', own: true })
    }
    const refused = await trpcCall(h, 'messages.thread', 'query', wo, { token: library.token })
    expect({ status: refused.status, code: appCode(refused.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    const empty = await trpcCall(h, 'messages.post', 'mutation', { ...wo, body: '' }, { token: opToken })
    expect({ status: empty.status, code: appCode(empty.body) }).toEqual({ status: 400, code: 'MESSAGE_BODY_REQUIRED' })
  })

  test('REST: GET and POST message for scripts', async () => {
    const opToken = await sessionFor(h, op.userId)
    const posted = await h.request('POST', '/api/message', { token: opToken, body: { ...otherWo, body: 'Da script' } })
    expect(posted.status).toBe(201)
    expect(posted.body.detail).toMatchObject({ body: 'Da script', own: true })
    const thread = await h.request('GET', `/api/message?context_type=work_order&context_key=${otherWo.context_key}`, { token: opToken })
    expect(thread.status).toBe(200)
    expect(thread.body.detail.rows.at(-1)._key).toBe(posted.body.detail._key)
    const unknown = await h.request('POST', '/api/message', { token: opToken, body: { context_type: 'job', context_key: MISSING_UUID, body: 'x' } })
    expect({ status: unknown.status, code: unknown.body.detail.code }).toEqual({ status: 404, code: 'UNKNOWN_JOB' })
    expect((await h.request('GET', '/api/message?context_type=product&context_key=x', { token: opToken })).status).toBe(400)
  })

  test('REST: PATCH and DELETE message/{key} edit and delete own messages only, as tRPC does', async () => {
    const opToken = await sessionFor(h, op.userId)
    const prodToken = await sessionFor(h, prod.userId)
    const library = await quickUser(h, 'rest-library', 'library')
    const mine = (await h.request('POST', '/api/message', { token: opToken, body: { ...otherWo, body: 'Prima versione' } })).body.detail
    const status = (res: { status: number; body: any }) => ({ status: res.status, code: res.body.detail?.code })

    h.clock.advance(MINUTE)
    const edited = await h.request('PATCH', `/api/message/${mine._key}`, { token: opToken, body: { body: '  Seconda versione ' } })
    expect(edited.status).toBe(200)
    expect(edited.body.detail).toMatchObject({ _key: mine._key, body: 'Seconda versione', edited_at: h.clock.now().getTime(), own: true })
    expect((await eventsOf(mine._key)).map((e) => e.event_type)).toEqual(['MESSAGE_POSTED', 'MESSAGE_UPDATED'])

    // Another author, a user without the thread's permissions, bad input: refused, nothing changes.
    expect(status(await h.request('PATCH', `/api/message/${mine._key}`, { token: prodToken, body: { body: 'non mio' } }))).toEqual({ status: 403, code: 'MESSAGE_NOT_OWN' })
    expect(status(await h.request('DELETE', `/api/message/${mine._key}`, { token: prodToken }))).toEqual({ status: 403, code: 'MESSAGE_NOT_OWN' })
    expect(status(await h.request('PATCH', `/api/message/${mine._key}`, { token: library.token, body: { body: 'x' } }))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    expect(status(await h.request('DELETE', `/api/message/${mine._key}`, { token: library.token }))).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    expect(status(await h.request('PATCH', `/api/message/${mine._key}`, { token: opToken, body: { body: '   ' } }))).toEqual({ status: 400, code: 'MESSAGE_BODY_REQUIRED' })
    expect(status(await h.request('PATCH', '/api/message/not-a-key', { token: opToken, body: { body: 'x' } }))).toEqual({ status: 400, code: 'INVALID_INPUT' })
    expect(status(await h.request('DELETE', `/api/message/${MISSING_UUID}`, { token: opToken }))).toEqual({ status: 404, code: 'NOT_FOUND' })
    expect((await messageThread(h.svc, op, otherWo)).rows.find((r) => r._key === mine._key)?.body).toBe('Seconda versione')

    const removed = await h.request('DELETE', `/api/message/${mine._key}`, { token: opToken })
    expect({ status: removed.status, detail: removed.body.detail }).toEqual({ status: 200, detail: { _key: mine._key } })
    expect((await messageThread(h.svc, op, otherWo)).rows.find((r) => r._key === mine._key)).toMatchObject({ deleted: true, body: '' })
    expect(status(await h.request('DELETE', `/api/message/${mine._key}`, { token: opToken }))).toEqual({ status: 409, code: 'MESSAGE_DELETED' })
    expect(status(await h.request('PATCH', `/api/message/${mine._key}`, { token: opToken, body: { body: 'di nuovo' } }))).toEqual({ status: 409, code: 'MESSAGE_DELETED' })
  })

  let made = 0
  async function freshJob(): Promise<MessageContext> {
    const product = await makeProduct(h.svc.db, { code: `MSG-J${++made}`, phases: ['Collaudo'] })
    const w = await createWorkOrder(h.svc, prod, { product_key: product.key, quantity: 1, phase_operators: [{ phase_key: product.phases[0]!.key, operator_key: op.userId }] })
    return { context_type: 'job', context_key: w.phases[0]!.jobs[0]!._key }
  }
})
