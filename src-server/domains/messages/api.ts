import * as v from 'valibot'
import {
  MessageContext,
  MessageEditInput,
  MessageKeyInput,
  MessagePostInput,
  MessageRow,
  MessageThread,
  MessageUnreadCount,
  MessageUnreadInput,
} from '../../../src/domains/messages/schemas'
import { mutation, query, useCases } from '../../api/use-case'
import * as messages from './service'

/**
 * Threads on jobs and work orders (SPEC 2, 6): production and quality in every thread, operators
 * within their contexts (their own or unassigned jobs and those jobs' work orders: the service checks).
 */
const MESSAGE_ACCESS = { scope: ['operator', 'production', 'quality'] } as const

/** The screens use every one; scripts read a thread, post into it, edit and delete their own messages. */
export const messagesApi = useCases('messages', {
  thread: query({
    summary: "A thread (context_type job or work_order, context_key the job's or work order's key): the newest 500 messages, oldest first; reading does not mark it read",
    access: MESSAGE_ACCESS,
    input: MessageContext,
    response: MessageThread,
    rest: { method: 'get', path: '/message' },
    run: (ctx, input) => messages.messageThread(ctx, ctx.actor, input),
  }),
  unread: query({
    summary: "Per context asked, the messages of others after the user's read mark",
    access: MESSAGE_ACCESS,
    input: MessageUnreadInput,
    response: v.array(MessageUnreadCount),
    run: (ctx, input) => messages.unreadCounts(ctx, ctx.actor, input.contexts),
  }),
  markRead: mutation({
    summary: 'Mark a thread read up to its newest message (now for an empty thread)',
    access: MESSAGE_ACCESS,
    input: MessageContext,
    run: (ctx, input) => messages.markThreadRead(ctx, ctx.actor, input),
  }),
  post: mutation({
    summary: 'Post a message into a job or work order thread (body required; unknown context: 404 UNKNOWN_JOB or UNKNOWN_WORK_ORDER)',
    access: MESSAGE_ACCESS,
    input: MessagePostInput,
    response: MessageRow,
    rest: { method: 'post', path: '/message', status: 201 },
    run: (ctx, input) => messages.postMessage(ctx, ctx.actor, input),
  }),
  edit: mutation({
    summary: "Edit one's own message (403 MESSAGE_NOT_OWN for another author's, 409 MESSAGE_DELETED once deleted); the same text changes nothing",
    access: MESSAGE_ACCESS,
    input: MessageEditInput,
    response: MessageRow,
    rest: { method: 'patch', path: '/message/{key}' },
    run: (ctx, input) => messages.editMessage(ctx, ctx.actor, input),
  }),
  remove: mutation({
    summary: "Delete one's own message: its text goes, a marker keeps its place in the thread (403 MESSAGE_NOT_OWN, 409 MESSAGE_DELETED)",
    access: MESSAGE_ACCESS,
    input: MessageKeyInput,
    response: v.object({ _key: v.string() }),
    rest: { method: 'delete', path: '/message/{key}' },
    run: (ctx, input) => messages.removeMessage(ctx, ctx.actor, input.key),
  }),
})
