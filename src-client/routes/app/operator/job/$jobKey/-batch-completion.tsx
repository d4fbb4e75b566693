import { Trans } from '@lingui/react/macro'
import { Button } from '@mantine/core'
import { useState } from 'react'
import { readNumberText } from '../../../../../../src/i18n/number-text'
import { NumberTextInput } from '../../../../../components/NumberTextInput'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { trpcClient } from '../../../../../lib/trpc'

type Props = {
  /** The batch's steps can be worked now (the job runs here, the batch is open). */
  editable: boolean
  /** A form or the serials hold unsaved changes: the batch waits for them to be saved or cancelled. */
  dirty: boolean
  onRefusedWhileEditing: () => void
}

/**
 * Phases without step_check (or without steps): the whole open batch completes at once, with the
 * scrap among its pieces (reports: OEE quality; empty = none). Kept on the device when offline.
 */
export function BatchCompletion({ editable, dirty, onRefusedWhileEditing }: Props) {
  const { view, busy, act } = useWorkSession()
  const batch = view.batch!
  const [scrapText, setScrapText] = useState('')
  const disabled = !editable || !view.can.complete_batch

  async function completeBatch() {
    if (dirty) return onRefusedWhileEditing()
    const scrap = readNumberText(scrapText, { min: 0, max: batch.qt_total, integer: true })
    if (!scrap.ok) return
    const input = { batch_key: batch._key, ...(scrap.value ? { scrapped_qt: scrap.value } : {}) }
    await act(`complete-batch:${batch._key}`, (idempotency_key) => trpcClient.execution.completeBatch.mutate({ ...input, idempotency_key }), {
      keepable: { write: { kind: 'complete-batch', input }, label: { batch_number: batch.number } },
    })
    setScrapText('')
  }

  return (
    <>
      <NumberTextInput
        mt="sm"
        size="md"
        label={<Trans>Pezzi scartati</Trans>}
        value={scrapText}
        onChange={setScrapText}
        min={0}
        max={batch.qt_total}
        integer
        disabled={disabled}
        data-testid="batch-scrap"
      />
      <Button fullWidth mt="sm" size="xl" h={60} color="green.8" onClick={completeBatch} loading={busy} disabled={disabled} data-testid="complete-batch">
        <Trans>Completa lotto</Trans>
      </Button>
    </>
  )
}
