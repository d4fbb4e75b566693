import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core'
import { useState } from 'react'
import { REASON_MAX } from '../../../src/domains/movements/schemas'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpcClient } from '../../lib/trpc'

/** SPEC 4: a movement is reverted with a reason; the opposite movement is written. */
export function RevertDialog({ movementKey, name, onClose }: { movementKey: string; name: string; onClose: () => void }) {
  const { t } = useLingui()
  const [reason, setReason] = useState('')
  const [missing, setMissing] = useState(false)
  const [saving, setSaving] = useState(false)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!reason.trim()) return setMissing(true)
    setSaving(true)
    try {
      await trpcClient.movements.revert.mutate({ key: movementKey, reason: reason.trim() })
      await queryClient.invalidateQueries()
      notifySuccess(t`Movimento stornato`)
      onClose()
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal opened onClose={onClose} title={t`Storna il movimento ${name}`} centered>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">
            <Trans>Viene registrato il movimento opposto e questo movimento resta segnato come stornato.</Trans>
          </Text>
          <Textarea
            label={t`Motivo`}
            withAsterisk
            autosize
            minRows={2}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value)
              setMissing(false)
            }}
            error={missing ? t`Indica il motivo` : undefined}
            data-autofocus
            data-testid="revert-reason"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Annulla</Trans>
            </Button>
            <Button type="submit" color="orange" loading={saving} data-testid="revert-confirm">
              <Trans>Storna</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
