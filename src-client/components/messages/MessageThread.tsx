import { Trans } from '@lingui/react/macro'
import { Alert, Box, Center, Divider, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core'
import { useDocumentVisibility } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { Fragment, useEffect, useRef, useState } from 'react'
import { MESSAGE_THREAD_MAX, type MessageContext, type MessageRow, type MessageThread as Thread } from '../../../src/domains/messages/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifyError } from '../../lib/notify'
import { useLive } from '../../lib/live'
import { BACKGROUND, queryClient, trpc, trpcClient } from '../../lib/trpc'
import { MessageEditor } from './MessageEditor'
import { MessageItem } from './MessageItem'
import { invalidateUnread } from './unread'

type Props = {
  context: MessageContext
  /** Height of the message list; the composer sits below it. */
  height?: string | number
}

/**
 * A message thread (SPEC 2: job and work order messages tabs): oldest at the top, newest in sight
 * at the bottom, the composer below. Reads again in the background when a live event names the
 * thread (never user activity, so an idle session still locks) and marks the thread read while it
 * is on screen.
 */
export function MessageThread({ context, height = 'max(260px, calc(100dvh - 430px))' }: Props) {
  const queryKey = trpc.messages.thread.queryKey(context)
  const thread = useQuery(trpc.messages.thread.queryOptions(context, { trpc: BACKGROUND }))
  // Newest messages appear without reloading: live events of this thread (issue 17), no polling.
  useLive(['messages'], (e) => (e.keys.context_key === context.context_key && e.keys.context_type === context.context_type ? [queryKey] : []))
  useMarkRead(context, thread.data)

  // The read mark as the thread opened: a divider shows where the new messages begin.
  const [openedMark, setOpenedMark] = useState<number | null | undefined>(undefined)
  useEffect(() => {
    if (thread.data && openedMark === undefined) setOpenedMark(thread.data.last_read_at)
  }, [thread.data, openedMark])

  const viewport = useRef<HTMLDivElement>(null)
  const newestKey = thread.data?.rows.at(-1)?._key
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight })
  }, [newestKey])

  const putRow = async (row: MessageRow) => {
    // A poll already under way would bring back the thread as it was before this change.
    await queryClient.cancelQueries({ queryKey })
    queryClient.setQueryData(queryKey, (old) => {
      if (!old) return old
      const known = old.rows.some((r) => r._key === row._key)
      return { ...old, rows: known ? old.rows.map((r) => (r._key === row._key ? row : r)) : [...old.rows, row] }
    })
  }
  /** A refusal leaves its translated message in a toast and keeps what was typed. */
  const attempt = async (action: () => Promise<void>) => {
    try {
      await action()
      return true
    } catch (e) {
      notifyError(e)
      return false
    }
  }

  if (thread.isPending) {
    return (
      <Center h={200}>
        <Loader />
      </Center>
    )
  }
  if (thread.isError) return <Alert color="red">{errorMessage(toApiError(thread.error))}</Alert>

  const rows = thread.data.rows
  const firstNew = typeof openedMark === 'number' ? rows.find((r) => !r.own && !r.deleted && r.created_at > openedMark)?._key : undefined
  return (
    <Paper withBorder radius="md" data-testid="message-thread">
      <ScrollArea h={height} viewportRef={viewport} type="auto" offsetScrollbars>
        <Stack gap="md" p="md">
          {rows.length >= MESSAGE_THREAD_MAX && (
            <Text size="sm" c="dimmed" ta="center">
              <Trans>Sono mostrati solo gli ultimi {MESSAGE_THREAD_MAX} messaggi.</Trans>
            </Text>
          )}
          {rows.length === 0 && (
            <Text c="dimmed" ta="center" size="lg" py="xl" data-testid="thread-empty">
              <Trans>Ancora nessun messaggio: scrivi il primo.</Trans>
            </Text>
          )}
          {rows.map((row) => (
            <Fragment key={row._key}>
              {row._key === firstNew && <Divider color="red" label={<Trans>Nuovi messaggi</Trans>} labelPosition="center" />}
              <MessageItem
                row={row}
                onEdit={(body) => attempt(async () => putRow(await trpcClient.messages.edit.mutate({ key: row._key, body })))}
                onRemove={() =>
                  attempt(async () => {
                    await trpcClient.messages.remove.mutate({ key: row._key })
                    await putRow({ ...row, body: '', deleted: true })
                  })
                }
              />
            </Fragment>
          ))}
        </Stack>
      </ScrollArea>
      <Box p="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <MessageEditor
          submitLabel={<Trans>Invia</Trans>}
          testId="message-composer"
          onSubmit={(body) =>
            attempt(async () => {
              await putRow(await trpcClient.messages.post.mutate({ ...context, body }))
              // Posting marked the thread read up to this message.
              void invalidateUnread()
            })
          }
        />
      </Box>
    </Paper>
  )
}

/**
 * Marks the thread read when it shows messages of others newer than the read mark, while the
 * page is visible; once per newest message (the next poll brings the moved mark). The call is
 * a background one: new messages arriving are not the user's activity.
 */
function useMarkRead(context: MessageContext, data: Thread | undefined) {
  const visible = useDocumentVisibility() === 'visible'
  const markedUpTo = useRef(Number.NEGATIVE_INFINITY)
  const { context_type, context_key } = context
  useEffect(() => {
    if (!data || !visible) return
    const newest = data.rows.at(-1)?.created_at
    const mark = data.last_read_at ?? Number.NEGATIVE_INFINITY
    const unseen = data.rows.some((r) => !r.own && !r.deleted && r.created_at > mark)
    if (!unseen || newest === undefined || newest <= markedUpTo.current) return
    markedUpTo.current = newest
    trpcClient.messages.markRead.mutate({ context_type, context_key }, BACKGROUND).then(
      () => void invalidateUnread(),
      () => {
        markedUpTo.current = Number.NEGATIVE_INFINITY
      },
    )
  }, [data, visible, context_type, context_key])
}
