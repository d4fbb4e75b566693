import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { WorkOrderDetail } from '../../../src/domains/work-orders/schemas'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { LoadError, Loading } from '../QueryState'
import { RevisionDiffView } from './RevisionDiffView'

/**
 * Moving a work order whose jobs have not started to the latest revision (issue 21), after seeing
 * what changes; the server refuses it once a job has started.
 */
export function RevisionUpdateDialog({ wo, to, onClose, onDone }: { wo: WorkOrderDetail; to: number; onClose: () => void; onDone: () => Promise<unknown> }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const diff = useQuery(trpc.revisions.diff.queryOptions({ key: wo.product_key, from: wo.revision.number, to }))
  async function move() {
    setBusy(true)
    try {
      await trpcClient.workOrders.changeRevision.mutate({ key: wo._key })
      await onDone()
      notifySuccess(t`Ordine di lavoro aggiornato alla rev ${to}`)
      onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal opened onClose={onClose} title={t`Aggiorna ${wo.code} dalla rev ${wo.revision.number} alla rev ${to}`} size="xl" centered>
      <Stack>
        <Text size="sm">
          <Trans>I job seguono le loro fasi nella nuova revisione; si può fare solo finché nessun job è iniziato.</Trans>
        </Text>
        <ScrollArea.Autosize mah="60vh">{diff.error ? <LoadError error={diff.error} /> : diff.data ? <RevisionDiffView diff={diff.data} /> : <Loading />}</ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={() => void move()} loading={busy} data-testid="revision-update-confirm">
            <Trans>Aggiorna alla rev {to}</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
