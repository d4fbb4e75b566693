import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Box, Button, FileButton, Group, Image, Loader, Paper, Stack, Text } from '@mantine/core'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ISSUE_ATTACHMENTS_MAX } from '../../../src/domains/issues/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { formatBytes } from '../../lib/media'
import { uploadIssueAttachment } from './issue-cache'

/** A hint for the picker; the server checks each file's type from its bytes. */
const FILE_ACCEPT = 'image/*,application/pdf,video/*'

export type PendingFile = { id: number; file: File; status: 'waiting' | 'uploading' | 'done' | 'error'; error?: string }

/**
 * Files chosen for an issue and their upload, one request each (the REST path takes one file),
 * so one refused file does not lose the others and each shows its own outcome. `max`: the room
 * left on the issue (the files it already holds aside).
 */
export function useAttachmentQueue(max = ISSUE_ATTACHMENTS_MAX) {
  const [files, setFiles] = useState<PendingFile[]>([])
  const nextId = useRef(1)
  const add = useCallback(
    (picked: File[]) => {
      setFiles((now) => [...now, ...picked.map((file) => ({ id: nextId.current++, file, status: 'waiting' as const }))].slice(0, max))
    },
    [max],
  )
  const remove = useCallback((id: number) => setFiles((now) => now.filter((f) => f.id !== id)), [])
  /** Forget the files that arrived (the issue lists them now), keeping the refused ones. */
  const clearDone = useCallback(() => setFiles((now) => now.filter((f) => f.status !== 'done')), [])

  /** Sends the files not sent yet (or refused before); resolves to true when all arrived. */
  const upload = useCallback(
    async (issueKey: string) => {
      const set = (id: number, patch: Partial<PendingFile>) => setFiles((now) => now.map((f) => (f.id === id ? { ...f, ...patch } : f)))
      let ok = true
      for (const f of files.filter((x) => x.status !== 'done')) {
        set(f.id, { status: 'uploading', error: undefined })
        try {
          await uploadIssueAttachment(issueKey, f.file)
          set(f.id, { status: 'done' })
        } catch (e) {
          ok = false
          set(f.id, { status: 'error', error: errorMessage(toApiError(e)) })
        }
      }
      return ok
    },
    [files],
  )
  return { files, max, add, remove, clearDone, upload }
}

/**
 * Photos straight from the tablet's camera (`capture`), or any image, PDF or video from the
 * device; each chosen file shows a preview (images), its size and its upload state.
 */
export function AttachmentPicker({ files, max = ISSUE_ATTACHMENTS_MAX, onAdd, onRemove, disabled = false, touch = false }: {
  files: PendingFile[]
  /** How many files the issue can still take. */
  max?: number
  onAdd: (files: File[]) => void
  onRemove: (id: number) => void
  disabled?: boolean
  touch?: boolean
}) {
  const size = touch ? 'lg' : 'sm'
  const full = files.length >= max
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <FileButton onChange={(f) => f && onAdd([f])} accept="image/*" capture="environment" disabled={disabled || full} inputProps={{ 'data-testid': 'issue-camera' } as object}>
          {(p) => (
            <Button {...p} size={size} variant="light" disabled={disabled || full}>
              <Trans>Scatta una foto</Trans>
            </Button>
          )}
        </FileButton>
        <FileButton onChange={onAdd} accept={FILE_ACCEPT} multiple disabled={disabled || full} inputProps={{ 'data-testid': 'issue-files' } as object}>
          {(p) => (
            <Button {...p} size={size} variant="default" disabled={disabled || full}>
              <Trans>Aggiungi file</Trans>
            </Button>
          )}
        </FileButton>
      </Group>
      {files.length > 0 && (
        <Stack gap={6} data-testid="issue-pending-files">
          {files.map((f) => (
            <PendingRow key={f.id} pending={f} onRemove={() => onRemove(f.id)} locked={disabled} />
          ))}
        </Stack>
      )}
    </Stack>
  )
}

function PendingRow({ pending, onRemove, locked }: { pending: PendingFile; onRemove: () => void; locked: boolean }) {
  const { t } = useLingui()
  const { file, status, error } = pending
  return (
    <Paper withBorder p={6} radius="sm" data-testid="pending-file" data-status={status}>
      <Group gap="sm" wrap="nowrap">
        <Preview file={file} />
        <Box miw={0} style={{ flex: 1 }}>
          <Text size="sm" truncate>
            {file.name}
          </Text>
          <Text size="xs" c={status === 'error' ? 'red' : 'dimmed'}>
            {status === 'error' ? error : status === 'done' ? <Trans>Caricato</Trans> : status === 'uploading' ? <Trans>Caricamento…</Trans> : formatBytes(file.size)}
          </Text>
        </Box>
        {status === 'uploading' && <Loader size="sm" />}
        {status === 'done' && (
          <Text c="teal" fw={700} aria-hidden>
            ✓
          </Text>
        )}
        {(status === 'waiting' || status === 'error') && !locked && (
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={onRemove} aria-label={t`Togli ${file.name}`}>
            ×
          </ActionIcon>
        )}
      </Group>
    </Paper>
  )
}

/** A thumbnail of a picked image, so the operator sees the photo is the right one. */
function Preview({ file }: { file: File }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!file.type.startsWith('image/')) return
    const u = URL.createObjectURL(file)
    setUrl(u)
    return () => URL.revokeObjectURL(u)
  }, [file])
  if (!url) {
    return (
      <Box w={48} h={48} style={{ borderRadius: 4, background: 'var(--mantine-color-default-hover)', display: 'grid', placeItems: 'center', flexShrink: 0 }}>
        <Text size="xs" fw={600} c="dimmed">
          {file.name.split('.').pop()?.toUpperCase().slice(0, 4)}
        </Text>
      </Box>
    )
  }
  return <Image src={url} alt="" w={48} h={48} fit="cover" radius="sm" style={{ flexShrink: 0 }} />
}
