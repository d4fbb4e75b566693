import { Box } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { MessageThread } from '../../../../../components/messages/MessageThread'

/** Messages in context 'job' (SPEC 2): the operator talks with production and quality about this job. */
export const Route = createFileRoute('/app/operator/job/$jobKey/messages')({
  component: MessagesTab,
})

function MessagesTab() {
  const { jobKey } = Route.useParams()
  return (
    <Box data-testid="messages-tab">
      <MessageThread context={{ context_type: 'job', context_key: jobKey }} />
    </Box>
  )
}
