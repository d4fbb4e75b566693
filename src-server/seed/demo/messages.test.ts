import { describe, expect, test } from 'bun:test'
import { markThreadRead, unreadCounts } from '../../domains/messages/service'
import { makeProduct } from '../../domains/work-orders/test-fixtures'
import type { Actor } from '../../context'
import { useHarness } from '../../test/harness'
import { seedDemoMessages } from './messages'
import { seedDemoUsers } from './users'
import { seedDemoWorkOrders } from './work-orders'

describe('demo messages seed', () => {
  const h = useHarness()

  test('threads on the demo job and work order, some unread for operatore1; once only', async () => {
    await seedDemoUsers(h.svc)
    expect(await seedDemoMessages(h.svc)).toBe(0)
    await makeProduct(h.svc.db, { code: 'DEMO-A', phases: ['Montaggio', 'Collaudo'] })
    await makeProduct(h.svc.db, { code: 'DEMO-B', phases: ['Montaggio', 'Collaudo', 'Imballaggio'] })
    await seedDemoWorkOrders(h.svc)
    expect(await seedDemoMessages(h.svc)).toBe(11)
    expect(await seedDemoMessages(h.svc)).toBe(0)

    const messages = await h.svc.db.selectFrom('messages').selectAll().orderBy('created_at').execute()
    const contexts = [...new Map(messages.map((m) => [`${m.context_type}/${m.context_key}`, { context_type: m.context_type, context_key: m.context_key }])).values()]
    expect(contexts.map((c) => c.context_type).sort()).toEqual(['job', 'job', 'work_order'])
    expect(messages.every((m) => m.created_at < h.clock.now())).toBe(true)
    expect(messages.filter((m) => m.edited_at)).toHaveLength(1)
    expect(messages.filter((m) => m.deleted_at).map((m) => m.body)).toEqual([''])

    const op = await h.svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', 'operatore1').executeTakeFirstOrThrow()
    const actor: Actor = { userId: op.id, sessionId: null, scope: op.scope, tokenId: null }
    const unread = await unreadCounts(h.svc, actor, contexts)
    expect(unread.map((u) => [u.context_type, u.unread])).toEqual([
      ['work_order', 4],
      ['job', 2],
      ['job', 1],
    ])
    await markThreadRead(h.svc, actor, contexts[1]!)
    expect((await unreadCounts(h.svc, actor, [contexts[1]!]))[0]!.unread).toBe(0)
  })
})
