import { plural } from '@lingui/core/macro'
import { Badge, Group } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { MessageContext } from '../../../src/domains/messages/schemas'
import { useLive } from '../../lib/live'
import { BACKGROUND, queryClient, trpc } from '../../lib/trpc'

/** Unread counts of several threads at once (one request, shared by the tab badge and the thread list). */
export function useUnreadCounts(contexts: MessageContext[]) {
  const query = useQuery({
    ...trpc.messages.unread.queryOptions({ contexts }, { trpc: BACKGROUND }),
    enabled: contexts.length > 0,
  })
  // Live (issue 17) instead of polling: any message posted, edited or deleted asks again (a background
  // call). Threads not on screen are marked stale too, so opening one after its badge lit shows the
  // new message instead of the cached thread.
  useLive(['messages'], () => [trpc.messages.unread.pathKey(), trpc.messages.thread.pathKey()])
  return query
}

/** After a thread was read or written: every badge asks again. */
export const invalidateUnread = () => queryClient.invalidateQueries({ queryKey: trpc.messages.unread.pathKey() })

export const threadId = (c: MessageContext) => `${c.context_type}/${c.context_key}`

export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <Badge color="red" variant="filled" size="md" circle={count < 10} aria-label={plural(count, { one: '# messaggio non letto', other: '# messaggi non letti' })} data-testid="unread-badge">
      {count > 99 ? '99+' : count}
    </Badge>
  )
}

/** A tab label with the unread messages of its threads (SPEC: unread counts per user on the tabs). */
export function UnreadTabLabel({ contexts, children }: { contexts: MessageContext[]; children: ReactNode }) {
  const { data } = useUnreadCounts(contexts)
  const total = data?.reduce((sum, c) => sum + c.unread, 0) ?? 0
  return (
    <Group gap={6} wrap="nowrap" component="span">
      {children}
      <UnreadBadge count={total} />
    </Group>
  )
}
