import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Text } from '@mantine/core'
import { useState } from 'react'
import type { IssueDetail } from '../../../src/domains/issues/schemas'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpcClient } from '../../lib/trpc'
import { invalidateIssues } from './issue-cache'

/** Quality removes an issue opened by mistake, after confirming; then the screen goes back to its list. */
export function IssueDeleteButton({ issue, onDeleted }: { issue: IssueDetail; onDeleted: () => void }) {
  const { t } = useLingui()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)

  async function remove() {
    setBusy(true)
    try {
      await trpcClient.issues.remove.mutate({ key: issue._key })
      notifySuccess(t`Segnalazione ${issue.code} eliminata`)
      setAsking(false)
      void invalidateIssues()
      onDeleted()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Button size="sm" variant="subtle" color="red" onClick={() => setAsking(true)} data-testid="issue-delete">
        <Trans>Elimina</Trans>
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title={t`Eliminare ${issue.code}?`} centered>
        <Text size="sm">
          <Trans>Solo per segnalazioni aperte per errore: la segnalazione e i suoi allegati spariscono dalle liste. Lo storico resta negli eventi.</Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setAsking(false)}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color="red" loading={busy} onClick={() => void remove()} data-testid="issue-delete-confirm">
            <Trans>Elimina</Trans>
          </Button>
        </Group>
      </Modal>
    </>
  )
}
