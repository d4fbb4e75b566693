import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Text, Textarea } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { MESSAGE_BODY_MAX } from '../../../src/domains/messages/schemas'

type Props = {
  initial?: string
  submitLabel: ReactNode
  /** Resolves true when the text was taken (the box then empties); a refusal keeps it. */
  onSubmit: (body: string) => Promise<boolean>
  onCancel?: () => void
  autoFocus?: boolean
  testId?: string
}

/**
 * The text box of the composer and of an edit: Ctrl/Cmd+Enter sends (Enter alone is a new line,
 * as on a tablet keyboard), the button stays off while there is nothing to send.
 */
export function MessageEditor({ initial = '', submitLabel, onSubmit, onCancel, autoFocus, testId }: Props) {
  const { t } = useLingui()
  const [body, setBody] = useState(initial)
  const [sending, setSending] = useState(false)
  const empty = body.trim() === ''

  async function submit() {
    if (empty || sending) return
    setSending(true)
    try {
      // Only what was sent goes: text typed meanwhile stays.
      if (await onSubmit(body)) setBody((now) => (now === body ? '' : now))
    } finally {
      setSending(false)
    }
  }

  return (
    <div data-testid={testId}>
      <Textarea
        aria-label={t`Testo del messaggio`}
        placeholder={t`Scrivi un messaggio…`}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void submit()
          } else if (e.key === 'Escape' && onCancel) onCancel()
        }}
        autosize
        minRows={2}
        maxRows={5}
        maxLength={MESSAGE_BODY_MAX}
        size="md"
        autoFocus={autoFocus}
      />
      <Group justify="space-between" mt="xs" wrap="nowrap">
        <Text size="xs" c="dimmed" visibleFrom="xs">
          <Trans>Ctrl+Invio per inviare</Trans>
        </Text>
        <Group gap="xs" wrap="nowrap" ml="auto">
          {onCancel && (
            <Button variant="default" size="md" onClick={onCancel} disabled={sending}>
              <Trans>Annulla</Trans>
            </Button>
          )}
          <Button size="md" miw={120} onClick={() => void submit()} disabled={empty} loading={sending} data-testid="message-send">
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </div>
  )
}
