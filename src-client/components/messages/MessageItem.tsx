import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Button, Group, Modal, Paper, Text } from '@mantine/core'
import { useState } from 'react'
import type { MessageRow } from '../../../src/domains/messages/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { MessageEditor } from './MessageEditor'

type Props = {
  row: MessageRow
  onEdit: (body: string) => Promise<boolean>
  onRemove: () => Promise<boolean>
}

/** One message: own ones on the right with edit and delete; a deleted one keeps its place as a marker. */
export function MessageItem({ row, onEdit, onRemove }: Props) {
  const { t } = useLingui()
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [removing, setRemoving] = useState(false)
  const canChange = row.own && !row.deleted

  return (
    <Box
      data-testid="message"
      data-own={row.own || undefined}
      data-deleted={row.deleted || undefined}
      style={{ alignSelf: row.own ? 'flex-end' : 'flex-start', width: editing ? '100%' : undefined, maxWidth: editing ? undefined : '85%' }}
    >
      <Group gap={6} justify={row.own ? 'flex-end' : 'flex-start'} mb={2} px={4}>
        <Text size="sm" fw={600}>
          {row.own ? <Trans>Tu</Trans> : (row.author_name ?? <Trans>Utente rimosso</Trans>)}
        </Text>
        <Text size="sm" c="dimmed">
          {formatDateTime(row.created_at)}
        </Text>
        {row.edited_at !== null && !row.deleted && (
          <Text size="sm" c="dimmed" fs="italic" title={formatDateTime(row.edited_at)} data-testid="message-edited">
            <Trans>(modificato)</Trans>
          </Text>
        )}
      </Group>
      {editing ? (
        <MessageEditor
          initial={row.body}
          submitLabel={<Trans>Salva</Trans>}
          autoFocus
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            const ok = await onEdit(body)
            if (ok) setEditing(false)
            return ok
          }}
          testId="message-edit"
        />
      ) : (
        <Paper
          px="md"
          py="sm"
          radius="lg"
          withBorder={!row.own}
          bg={row.deleted ? 'transparent' : row.own ? 'var(--mantine-color-teal-light)' : 'var(--mes-surface-1)'}
          style={row.deleted ? { border: '1px dashed var(--mantine-color-default-border)' } : undefined}
        >
          {row.deleted ? (
            <Text c="dimmed" fs="italic">
              <Trans>Messaggio eliminato</Trans>
            </Text>
          ) : (
            <Text size="lg" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="message-body">
              {row.body}
            </Text>
          )}
        </Paper>
      )}
      {canChange && !editing && (
        <Group gap={4} justify="flex-end" mt={2}>
          <Button variant="subtle" size="sm" h={40} onClick={() => setEditing(true)} data-testid="message-edit-open">
            <Trans>Modifica</Trans>
          </Button>
          <Button variant="subtle" color="red" size="sm" h={40} onClick={() => setConfirming(true)} data-testid="message-remove">
            <Trans>Elimina</Trans>
          </Button>
        </Group>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t`Eliminare il messaggio?`} centered>
        <Text>
          <Trans>Il testo sparisce per tutti; nella conversazione resta l'indicazione che il messaggio è stato eliminato.</Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" size="md" onClick={() => setConfirming(false)}>
            <Trans>Annulla</Trans>
          </Button>
          <Button
            color="red"
            size="md"
            loading={removing}
            data-testid="message-remove-confirm"
            onClick={async () => {
              setRemoving(true)
              if (await onRemove()) setConfirming(false)
              setRemoving(false)
            }}
          >
            <Trans>Elimina</Trans>
          </Button>
        </Group>
      </Modal>
    </Box>
  )
}
