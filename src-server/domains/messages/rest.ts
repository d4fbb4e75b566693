import { MessageContext, MessagePostInput, MessageRow, MessageThread } from '../../../src/domains/messages/schemas'
import { route } from '../../rest/route'
import * as messages from './service'
import { MESSAGE_ACCESS } from './trpc'

const tag = 'messages'

/** For automation scripts: read a thread and post into it (the screens use tRPC). */
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
]
