import { Trans } from '@lingui/react/macro'
import { Alert, Button, Center, Grid, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import type { IssueDetail } from '../../../src/domains/issues/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { useLive } from '../../lib/live'
import { trpc } from '../../lib/trpc'
import { useIssueAccess } from './issue-access'
import { IssueActions } from './IssueActions'
import { IssueAttachments } from './IssueAttachments'
import { IssueCriticalBadge, IssueStateBadge } from './IssueBadges'
import { IssueDeleteButton } from './IssueDeleteButton'
import { IssueContext } from './IssueContext'
import { IssueEditDialog } from './IssueEditDialog'
import { IssueHistory } from './IssueHistory'
import { IssuePrints } from '../printing/IssuePrints'
import { SignatureLines } from '../signatures/SignatureLines'

const HOUR_MS = 3_600_000

type Props = {
  issueKey: string
  /** The way back to the list this detail was opened from. */
  back: ReactNode
  /** The operator's tablet: larger buttons, no links out of the work session. */
  touch?: boolean
  /** Where to go once quality deleted the issue (no delete button without it). */
  onDeleted?: () => void
}

/** One issue: what, where and who; its actions, attachments and history. */
export function IssueDetailView({ issueKey, back, touch = false, onDeleted }: Props) {
  // Others change issues too (quality, the escalation sweep): opening one always reads it again.
  const query = useQuery({ ...trpc.issues.get.queryOptions({ key: issueKey }), staleTime: 0 })
  // State, critical flag, attachments and history changed by anyone show at once.
  useLive(['issues'], (e) => (e.subject_key === issueKey ? [trpc.issues.get.queryKey({ key: issueKey }), trpc.issues.pathKey()] : []))
  const access = useIssueAccess()
  if (query.isPending) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    )
  }
  if (query.isError) {
    return (
      <Stack align="flex-start">
        {back}
        <Alert color="red" w="100%">
          {errorMessage(toApiError(query.error))}
        </Alert>
      </Stack>
    )
  }
  const issue = query.data
  return (
    <Stack gap="md" data-testid="issue-detail" data-issue-key={issue._key}>
      {back}
      <IssueHeader issue={issue} touch={touch} onDeleted={onDeleted} />
      <SignatureLines signatures={issue.signatures} />
      <IssuePrints issueKey={issue._key} typeKey={issue.type_key} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md">
              <Title order={5} mb="xs">
                <Trans>Descrizione</Trans>
              </Title>
              {issue.description ? (
                <Text size={touch ? 'md' : 'sm'} style={{ whiteSpace: 'pre-wrap' }} data-testid="issue-description-text">
                  {issue.description}
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  <Trans>Nessuna descrizione</Trans>
                </Text>
              )}
            </Paper>
            <IssueAttachments issue={issue} canAdd={access.canEdit(issue)} touch={touch} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <IssueHistory history={issue.history} />
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

function IssueHeader({ issue, touch, onDeleted }: { issue: IssueDetail; touch: boolean; onDeleted?: () => void }) {
  const access = useIssueAccess()
  const [editing, setEditing] = useState(false)
  const size = touch ? 'lg' : 'sm'
  const escalatesAt = issue.state !== 'closed' && !issue.critical && issue.close_within > 0 ? issue.opened_at + issue.close_within * HOUR_MS : null
  return (
    <Paper withBorder radius="md" p="md" style={issue.critical && issue.state !== 'closed' ? { borderLeft: '6px solid var(--mantine-color-red-7)' } : undefined}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} miw={0} style={{ flex: 1 }}>
          <Group gap="xs">
            <Title order={3} data-testid="issue-detail-code">
              {issue.code}
            </Title>
            <IssueStateBadge state={issue.state} size="lg" />
            <IssueCriticalBadge critical={issue.critical} closed={issue.state === 'closed'} size="lg" />
          </Group>
          <Text size={touch ? 'xl' : 'lg'} fw={600} data-testid="issue-detail-title">
            {issue.title}
          </Text>
        </Stack>
        <Group gap="xs">
          {access.canEdit(issue) && (
            <Button size={size} variant="default" onClick={() => setEditing(true)} data-testid="issue-edit">
              <Trans>Modifica</Trans>
            </Button>
          )}
          {access.canAct && <IssueActions issue={issue} touch={touch} />}
          {access.canAct && onDeleted && <IssueDeleteButton issue={issue} onDeleted={onDeleted} />}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mt="sm">
        <Fact label={<Trans>Tipo</Trans>}>
          <Text size="sm">{issue.type_name}</Text>
        </Fact>
        <Fact label={<Trans>Contesto</Trans>}>
          <IssueContext issue={issue} links={!touch} />
        </Fact>
        <IssuePlaceFacts issue={issue} />
        <Fact label={<Trans>Apertura</Trans>}>
          <Text size="sm">{formatDateTime(issue.opened_at)}</Text>
          <Text size="xs" c="dimmed">
            {issue.opened_by_name ?? <Trans>sistema</Trans>}
          </Text>
        </Fact>
        {issue.state === 'closed' && issue.closed_at !== null ? (
          <Fact label={<Trans>Chiusura</Trans>}>
            <Text size="sm">{formatDateTime(issue.closed_at)}</Text>
            <Text size="xs" c="dimmed">
              {issue.closed_by_name}
            </Text>
          </Fact>
        ) : issue.escalated_at !== null && issue.critical ? (
          <Fact label={<Trans>Critica automaticamente</Trans>}>
            <Text size="sm" c="red">
              {formatDateTime(issue.escalated_at)}
            </Text>
          </Fact>
        ) : escalatesAt !== null ? (
          <Fact label={<Trans>Diventa critica</Trans>}>
            <Text size="sm" data-testid="issue-escalates-at">
              {formatDateTime(escalatesAt)}
            </Text>
            <Text size="xs" c="dimmed">
              <Trans>se non chiusa entro {issue.close_within} h</Trans>
            </Text>
          </Fact>
        ) : null}
      </SimpleGrid>
      {editing && <IssueEditDialog issue={issue} opened onClose={() => setEditing(false)} touch={touch} />}
    </Paper>
  )
}

/** The batch and the step of the job the issue was raised on, when it names them. */
function IssuePlaceFacts({ issue }: { issue: Pick<IssueDetail, 'batch' | 'step'> }) {
  const { batch, step } = issue
  return (
    <>
      {batch && (
        <Fact label={<Trans>Lotto</Trans>}>
          <Text size="sm" data-testid="issue-batch">
            <Trans>
              Lotto {batch.number} · {batch.qt_total} pz
            </Trans>
          </Text>
        </Fact>
      )}
      {step && (
        <Fact label={<Trans>Passo</Trans>}>
          <Text size="sm" data-testid="issue-step">
            {step.position !== null && step.title ? (
              <Trans>
                Passo {step.position}: {step.title}
              </Trans>
            ) : step.position !== null ? (
              <Trans>Passo {step.position}</Trans>
            ) : (
              <Trans>Passo non più nel processo</Trans>
            )}
          </Text>
        </Fact>
      )}
    </>
  )
}

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </div>
  )
}
