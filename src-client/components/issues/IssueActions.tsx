import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import type { IssueAction, IssueDetail } from '../../../src/domains/issues/schemas'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../lib/trpc'
import { ActionSignatureFields, useActionSignature } from '../signatures/ActionSignature'
import { invalidateIssues } from './issue-cache'
import { ACTION_DONE, ACTION_LABELS } from './issue-labels'

/** What each action does beyond its name, asked before it runs (none: runs at once). */
function consequencesOf(issue: Pick<IssueDetail, 'critical'>): Partial<Record<IssueAction, ReactNode>> {
  return {
    close: issue.critical ? (
      <Trans>La segnalazione viene chiusa e non segna più come critici il job e l'ordine di lavoro. Potrà essere riaperta.</Trans>
    ) : (
      <Trans>La segnalazione viene chiusa. Potrà essere riaperta.</Trans>
    ),
    reopen_critical: <Trans>La segnalazione torna aperta e critica: il job e l'ordine di lavoro vengono segnati come critici.</Trans>,
    make_critical: <Trans>Il job e l'ordine di lavoro vengono segnati come critici finché la segnalazione non è chiusa o resa non critica.</Trans>,
    make_non_critical: <Trans>La segnalazione resta aperta ma non segna più come critici il job e l'ordine di lavoro.</Trans>,
  }
}

/** The actions possible from the issue's state; the critical toggle only while it is not closed. */
export function availableActions(issue: Pick<IssueDetail, 'state' | 'critical'>): IssueAction[] {
  if (issue.state === 'closed') return ['reopen', 'reopen_critical']
  return ['close', issue.critical ? 'make_non_critical' : 'make_critical']
}

/** Close and reopen in the theme's primary colour; the critical toggles in theirs. */
const COLORS: Record<IssueAction, string | undefined> = {
  close: undefined,
  reopen: undefined,
  reopen_critical: 'red',
  make_critical: 'red',
  make_non_critical: 'teal',
}

/** Quality's actions on an issue, each with its success toast; consequential ones confirm first. */
export function IssueActions({ issue, touch = false }: { issue: IssueDetail; touch?: boolean }) {
  const { t, i18n } = useLingui()
  const consequences = consequencesOf(issue)
  const [asking, setAsking] = useState<IssueAction | null>(null)
  const [busy, setBusy] = useState<IssueAction | null>(null)
  // Closing a critical issue is signed when the settings say so (asked in the confirmation).
  const signature = useActionSignature('critical_issue_close', issue.critical)
  const signs = (action: IssueAction | null) => action === 'close' && signature.meaning !== null

  async function run(action: IssueAction) {
    if (signs(action) && !signature.ready) return
    setBusy(action)
    try {
      const next = await trpcClient.issues.act.mutate({ key: issue._key, action, ...(signs(action) ? { signature: signature.input() } : {}) })
      queryClient.setQueryData(trpc.issues.get.queryKey({ key: issue._key }), next)
      notifySuccess(i18n._(ACTION_DONE[action]))
      setAsking(null)
      void invalidateIssues()
    } catch (e) {
      if (!(signs(action) && signature.refused(e))) notifyError(e)
    } finally {
      setBusy(null)
    }
  }

  const size = touch ? 'lg' : 'sm'
  return (
    <>
      {availableActions(issue).map((action) => (
        <Button
          key={action}
          size={size}
          color={COLORS[action]}
          variant={action === 'close' || action === 'reopen' ? 'filled' : 'light'}
          loading={busy === action}
          disabled={busy !== null && busy !== action}
          onClick={() => (consequences[action] ? setAsking(action) : void run(action))}
          data-testid={`issue-action-${action}`}
        >
          {i18n._(ACTION_LABELS[action])}
        </Button>
      ))}
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={asking ? t`${i18n._(ACTION_LABELS[asking])}: ${issue.code}?` : ''}
        centered
        size={signs(asking) ? 'lg' : undefined}
      >
        <Text size="sm">{asking && consequences[asking]}</Text>
        {signs(asking) && (
          <Stack mt="md">
            <ActionSignatureFields state={signature} what={t`Chiusura della segnalazione critica ${issue.code}: ${issue.title}`} />
          </Stack>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" size={size} onClick={() => setAsking(null)}>
            <Trans>Annulla</Trans>
          </Button>
          <Button
            size={size}
            color={asking ? COLORS[asking] : undefined}
            loading={busy !== null}
            disabled={signs(asking) && !signature.ready}
            onClick={() => asking && void run(asking)}
            data-testid="issue-action-confirm"
          >
            {asking && i18n._(ACTION_LABELS[asking])}
          </Button>
        </Group>
      </Modal>
    </>
  )
}
