import { Trans } from '@lingui/react/macro'
import { Grid, NavLink, Stack, Text, Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { MessageContext } from '../../../../../../src/domains/messages/schemas'
import type { WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import { MessageThread } from '../../../../../components/messages/MessageThread'
import { threadId, UnreadBadge, useUnreadCounts } from '../../../../../components/messages/unread'
import { workOrderThreads } from '../../../../../components/messages/work-order-threads'
import { useWorkOrder } from '../-workorder-ui'

/**
 * Messages of the work order (SPEC 2, context 'work_order'), and beside it the threads of its
 * jobs, where production reads and answers what the operators write from the work session.
 */
export const Route = createFileRoute('/app/production/workorder/$wo_key/messages')({
  component: MessagesTab,
})

function MessagesTab() {
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  const [selected, setSelected] = useState(`work_order/${wo_key}`)
  const threads = wo ? workOrderThreads(wo) : []
  const unread = useUnreadCounts(threads)
  if (!wo) return null
  const current = threads.find((c) => threadId(c) === selected) ?? threads[0]!
  const countOf = (c: MessageContext) => unread.data?.find((u) => threadId(u) === threadId(c))?.unread ?? 0

  return (
    <Grid gap="md" data-testid="messages-tab">
      <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
        <Stack gap={2} data-testid="thread-list">
          {threads.map((c) => {
            const id = threadId(c)
            const job = jobOf(wo, c)
            return (
              <NavLink
                key={id}
                active={id === threadId(current)}
                onClick={() => setSelected(id)}
                label={<ThreadTitle wo={wo} context={c} />}
                description={
                  job && (
                    <Text span size="xs" c="dimmed">
                      {job.operator_name ?? <Trans>Non assegnato</Trans>} · <Trans>{job.quantity} pz</Trans>
                    </Text>
                  )
                }
                rightSection={<UnreadBadge count={countOf(c)} />}
                py="sm"
                data-testid="thread-link"
                data-thread={id}
              />
            )
          })}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
        <Title order={4} mb="xs">
          <ThreadTitle wo={wo} context={current} />
        </Title>
        {/* Below the work order's header and figures: the composer stays in sight. */}
        <MessageThread key={threadId(current)} context={current} height="max(260px, calc(100dvh - 580px))" />
      </Grid.Col>
    </Grid>
  )
}

function jobOf(wo: WorkOrderDetail, c: MessageContext) {
  if (c.context_type !== 'job') return undefined
  for (const phase of wo.phases) {
    const job = phase.jobs.find((j) => j._key === c.context_key)
    if (job) return { ...job, phase }
  }
  return undefined
}

/** What a thread is about: the work order, or a job by its phase. */
function ThreadTitle({ wo, context }: { wo: WorkOrderDetail; context: MessageContext }) {
  const job = jobOf(wo, context)
  if (!job) return <Trans>Ordine di lavoro {wo.code}</Trans>
  return (
    <Trans>
      Fase {job.phase.position}. {job.phase.name}
    </Trans>
  )
}
