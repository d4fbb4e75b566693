import { Trans } from '@lingui/react/macro'
import { Paper, Stack, Text, Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useWorkSession } from '../../../../../components/operator/work-session-context'

/** Notes of the work order, the job and the phase's production notes (read-only). */
export const Route = createFileRoute('/app/operator/job/$jobKey/notes')({
  component: NotesTab,
})

function NotesTab() {
  const { view } = useWorkSession()
  return (
    <Stack gap="sm" data-testid="notes-tab">
      <Note title={<Trans>Note dell'ordine di lavoro {view.work_order.code}</Trans>} text={view.work_order.notes} />
      <Note title={<Trans>Note del job</Trans>} text={view.job.notes} />
      <Note title={<Trans>Note di produzione della fase {view.phase.name}</Trans>} text={view.phase.production_notes} />
    </Stack>
  )
}

function Note({ title, text }: { title: ReactNode; text: string }) {
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="xs">
        {title}
      </Title>
      {text.trim() ? (
        <Text size="lg" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Text>
      ) : (
        <Text c="dimmed">
          <Trans>Nessuna nota</Trans>
        </Text>
      )}
    </Paper>
  )
}
