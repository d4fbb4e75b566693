import * as v from 'valibot'
import { MessageContext, MessageEditBody, MessageKeyInput, MessagePostInput, MessageRow, MessageThread } from '../../../src/domains/messages/schemas'
import { route } from '../../rest/route'
import * as messages from './service'
import { MESSAGE_ACCESS } from './trpc'

const tag = 'messages'

/** For automation scripts: read a thread, post into it, edit and delete one's own messages (the screens use tRPC). */
export const messageRoutes = [
  route({
    method: 'get',
    path: '/message',
    tag,
    summary: "A thread (context_type job or work_order, context_key the job's or work order's key): the newest 500 messages, oldest first; reading does not mark it read",
    access: MESSAGE_ACCESS,
    query: MessageContext,
    response: MessageThread,
    handler: (ctx, { query }) => messages.messageThread(ctx, ctx.actor!, query),
  }),
  route({
    method: 'post',
    path: '/message',
    tag,
    summary: 'Post a message into a job or work order thread (body required; unknown context: 404 UNKNOWN_JOB or UNKNOWN_WORK_ORDER)',
    access: MESSAGE_ACCESS,
    body: MessagePostInput,
    response: MessageRow,
    status: 201,
    handler: (ctx, { body }) => messages.postMessage(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/message/{key}',
    tag,
    summary: "Edit one's own message (403 MESSAGE_NOT_OWN for another author's, 409 MESSAGE_DELETED once deleted); the same text changes nothing",
    access: MESSAGE_ACCESS,
    params: MessageKeyInput,
    body: MessageEditBody,
    response: MessageRow,
    handler: (ctx, { params, body }) => messages.editMessage(ctx, ctx.actor!, { key: params.key, body: body.body }),
  }),
  route({
    method: 'delete',
    path: '/message/{key}',
    tag,
    summary: "Delete one's own message: its text goes, a marker keeps its place in the thread (403 MESSAGE_NOT_OWN, 409 MESSAGE_DELETED)",
    access: MESSAGE_ACCESS,
    params: MessageKeyInput,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params }) => messages.removeMessage(ctx, ctx.actor!, params.key),
  }),
]
