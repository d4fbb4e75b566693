import type { Access } from '../../auth/authorize'
import { MessageContext, MessageEditInput, MessageKeyInput, MessagePostInput, MessageUnreadInput } from '../../../src/domains/messages/schemas'
import { procedure, router } from '../../trpc/init'
import * as messages from './service'

/**
 * Threads on jobs and work orders (SPEC 2, 6): production and quality in every thread, operators
 * within their contexts (their own or unassigned jobs and those jobs' work orders: the service checks).
 */
export const MESSAGE_ACCESS: Access = { scope: ['operator', 'production', 'quality'] }

const member = procedure(MESSAGE_ACCESS)

export const messagesRouter = router({
  thread: member.input(MessageContext).query(({ ctx, input }) => messages.messageThread(ctx, ctx.actor, input)),
  unread: member.input(MessageUnreadInput).query(({ ctx, input }) => messages.unreadCounts(ctx, ctx.actor, input.contexts)),
  markRead: member.input(MessageContext).mutation(({ ctx, input }) => messages.markThreadRead(ctx, ctx.actor, input)),
  post: member.input(MessagePostInput).mutation(({ ctx, input }) => messages.postMessage(ctx, ctx.actor, input)),
  edit: member.input(MessageEditInput).mutation(({ ctx, input }) => messages.editMessage(ctx, ctx.actor, input)),
  remove: member.input(MessageKeyInput).mutation(({ ctx, input }) => messages.removeMessage(ctx, ctx.actor, input.key)),
})
