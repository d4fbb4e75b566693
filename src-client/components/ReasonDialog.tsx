import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { notifyError } from '../lib/notify'
import { ActionSignatureFields, type ActionSignatureState } from './signatures/ActionSignature'

/**
 * A change that must say why (reverting a movement, releasing a revision): the explanation, a
 * required reason, and the action. `act` gets the trimmed reason; an error it throws is shown and
 * the dialog stays open with what was typed. When the settings require the action to be signed,
 * `signature` adds the manifest and the password (the caller sends `signature.state.input()`).
 */
export function ReasonDialog(props: {
  title: string
  explanation: ReactNode
  maxLength: number
  confirmLabel: ReactNode
  color?: string
  /** Prefix of the test ids: `<prefix>-reason`, `<prefix>-confirm`. */
  testId: string
  act: (reason: string) => Promise<void>
  onClose: () => void
  signature?: { state: ActionSignatureState; what: string }
}) {
  const { t } = useLingui()
  const [reason, setReason] = useState('')
  const [missing, setMissing] = useState(false)
  const [saving, setSaving] = useState(false)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!reason.trim()) return setMissing(true)
    if (props.signature && !props.signature.state.ready) return
    setSaving(true)
    try {
      await props.act(reason.trim())
      props.onClose()
    } catch (err) {
      if (!props.signature?.state.refused(err)) notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size={props.signature?.state.meaning ? 'lg' : undefined}>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">{props.explanation}</Text>
          <Textarea
            label={t`Motivo`}
            withAsterisk
            autosize
            minRows={2}
            maxLength={props.maxLength}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value)
              setMissing(false)
            }}
            error={missing ? t`Indica il motivo` : undefined}
            data-autofocus
            data-testid={`${props.testId}-reason`}
          />
          {props.signature && <ActionSignatureFields state={props.signature.state} what={props.signature.what} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              <Trans>Annulla</Trans>
            </Button>
            <Button type="submit" color={props.color} loading={saving} data-testid={`${props.testId}-confirm`}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
