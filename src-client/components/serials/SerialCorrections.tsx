import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { hasScope } from '../../../src/auth/scopes'
import { SERIAL_CODE_MAX, SERIAL_REASON_MAX } from '../../../src/domains/serials/schemas'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'

/** Traceability staff correct serials (the server checks scope and settings again). */
export function useCanCorrectSerials() {
  return hasScope(useSession()?.scope ?? '', 'traceability')
}

type Props = { opened: boolean; onClose: () => void }

/** SPEC 5: a serial change needs a reason; the code only where the serial_code_edit setting allows it. */
export function EditSerialCodeDialog({ serialKey, code, ...modal }: Props & { serialKey: string; code: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [next, setNext] = useState(code)
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const save = async () => {
    setSaving(true)
    try {
      await trpcClient.serials.patch.mutate({ key: serialKey, patch: { code: next, reason } })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Seriale aggiornato`)
      modal.onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Modifica il codice del seriale`} centered>
      <Stack>
        <TextInput label={t`Nuovo codice`} value={next} onChange={(e) => setNext(e.currentTarget.value)} maxLength={SERIAL_CODE_MAX} data-autofocus />
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} loading={saving} disabled={!reason.trim() || next === code}>
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** Takes a component out of the serial (only where the serial_delete setting allows it), with a reason. */
export function UnlinkSerialDialog({ linkKey, childCode, parentCode, ...modal }: Props & { linkKey: string; childCode: string; parentCode: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const remove = async () => {
    setSaving(true)
    try {
      await trpcClient.serials.unlink.mutate({ link_key: linkKey, reason })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Collegamento rimosso`)
      modal.onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Togliere ${childCode} da ${parentCode}?`} centered>
      <Stack>
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color="red" onClick={remove} loading={saving} disabled={!reason.trim()}>
            <Trans>Rimuovi collegamento</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
