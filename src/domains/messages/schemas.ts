import * as v from 'valibot'
import { StorableText, UuidKey } from '../../valibot-helpers'

/**
 * Message threads (SPEC 2: operator messages tab in context 'job', work order messages tab in
 * context 'work_order'; SPEC 4 message events posted, updated, deleted). A thread is named by its
 * context; authors edit and delete only their own messages (a deleted message leaves a marker so
 * the thread keeps its shape). Each user has a read mark per thread: unread = messages of others
 * after it.
 */
export const MESSAGE_CONTEXT_TYPES = ['job', 'work_order'] as const
export type MessageContextType = (typeof MESSAGE_CONTEXT_TYPES)[number]

export const MESSAGE_EVENTS = { posted: 'MESSAGE_POSTED', updated: 'MESSAGE_UPDATED', deleted: 'MESSAGE_DELETED' } as const

export const MESSAGE_BODY_MAX = 4_000
/** Newest messages of a thread returned at most. */
export const MESSAGE_THREAD_MAX = 500

const Body = v.pipe(v.string(), StorableText, v.trim(), v.maxLength(MESSAGE_BODY_MAX, `a message may have at most ${MESSAGE_BODY_MAX} characters`))

export const MessageContext = v.object({
  context_type: v.picklist(MESSAGE_CONTEXT_TYPES, `context_type must be one of ${MESSAGE_CONTEXT_TYPES.join(', ')}`),
  context_key: UuidKey('context_key must be a valid job or work order key'),
})
export type MessageContext = v.InferOutput<typeof MessageContext>

/** `messages.post`. An empty body is refused by the service (MESSAGE_BODY_REQUIRED). */
export const MessagePostInput = v.object({ ...MessageContext.entries, body: Body })
export type MessagePostInput = v.InferOutput<typeof MessagePostInput>

const MessageKey = UuidKey('key must be a valid message key')

/** `messages.edit`, `PATCH message/{key}`: own messages only. */
export const MessageEditInput = v.object({ key: MessageKey, body: Body })
export type MessageEditInput = v.InferOutput<typeof MessageEditInput>

/** `messages.remove`, `DELETE message/{key}`: own messages only. */
export const MessageKeyInput = v.object({ key: MessageKey })

export const MessageRow = v.object({
  _key: v.string(),
  context_type: v.picklist(MESSAGE_CONTEXT_TYPES),
  context_key: v.string(),
  author_key: v.nullable(v.string()),
  author_name: v.nullable(v.string()),
  /** Empty once deleted. */
  body: v.string(),
  created_at: v.number(),
  edited_at: v.nullable(v.number()),
  deleted: v.boolean(),
  /** Written by the user asking. */
  own: v.boolean(),
})
export type MessageRow = v.InferOutput<typeof MessageRow>

/** `messages.thread`: oldest first (the newest MESSAGE_THREAD_MAX). */
export const MessageThread = v.object({
  rows: v.array(MessageRow),
  /** The asker's read mark before this call, UTC ms (null: never read). */
  last_read_at: v.nullable(v.number()),
})
export type MessageThread = v.InferOutput<typeof MessageThread>

/** `messages.unread`: counts for several threads at once (tab badges, lists). */
export const MessageUnreadInput = v.object({ contexts: v.pipe(v.array(MessageContext), v.minLength(1), v.maxLength(100)) })
export const MessageUnreadCount = v.object({ ...MessageContext.entries, unread: v.number() })
