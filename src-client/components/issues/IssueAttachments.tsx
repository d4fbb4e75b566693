import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Group, Image, Modal, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core'
import { useState } from 'react'
import { ISSUE_ATTACHMENTS_MAX, type IssueAttachment, type IssueDetail } from '../../../src/domains/issues/schemas'
import { formatBytes } from '../../lib/media'
import { notifySuccess } from '../../lib/notify'
import { AttachmentPicker, useAttachmentQueue } from './AttachmentPicker'
import { invalidateIssues } from './issue-cache'

const isImage = (a: IssueAttachment) => a.content_type.startsWith('image/')

/**
 * Photos as thumbnails that open full size; other files (PDF, videos) as links. Those who may
 * edit the issue add more files here.
 */
export function IssueAttachments({ issue, canAdd, touch = false }: { issue: IssueDetail; canAdd: boolean; touch?: boolean }) {
  const { t } = useLingui()
  const [shown, setShown] = useState<IssueAttachment | null>(null)
  const images = issue.attachments.filter(isImage)
  const others = issue.attachments.filter((a) => !isImage(a))
  const thumb = touch ? 120 : 96
  const room = ISSUE_ATTACHMENTS_MAX - issue.attachments.length
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={5} mb="sm">
        <Trans>Allegati</Trans>
      </Title>
      {issue.attachments.length === 0 && (
        <Text size="sm" c="dimmed" mb={canAdd ? 'sm' : 0}>
          <Trans>Nessun allegato</Trans>
        </Text>
      )}
      {images.length > 0 && (
        <SimpleGrid cols={{ base: 3, sm: 4 }} spacing="xs" mb="sm" data-testid="issue-images">
          {images.map((a) => (
            <UnstyledButton key={a._key} onClick={() => setShown(a)} aria-label={t`Apri ${a.filename}`} data-testid="issue-thumbnail">
              <Image src={a.url} alt={a.filename} h={thumb} fit="cover" radius="sm" />
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
      {others.length > 0 && (
        <Stack gap={4} mb="sm">
          {others.map((a) => (
            <Group key={a._key} gap="xs" wrap="nowrap">
              <Anchor href={a.url} target="_blank" rel="noreferrer" size={touch ? 'md' : 'sm'} truncate data-testid="issue-file">
                {a.filename}
              </Anchor>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {formatBytes(a.size)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {canAdd && room > 0 && <AddAttachments issueKey={issue._key} room={room} touch={touch} />}
      <Modal opened={shown !== null} onClose={() => setShown(null)} title={shown?.filename} size="auto" centered>
        {shown && (
          <Stack gap="xs">
            <Image src={shown.url} alt={shown.filename} mah="75vh" maw="90vw" fit="contain" />
            <Anchor href={shown.url} target="_blank" rel="noreferrer" size="sm">
              <Trans>Apri l'originale</Trans>
            </Anchor>
          </Stack>
        )}
      </Modal>
    </Paper>
  )
}

function AddAttachments({ issueKey, room, touch }: { issueKey: string; room: number; touch: boolean }) {
  const { t } = useLingui()
  const queue = useAttachmentQueue(room)
  const [busy, setBusy] = useState(false)
  const pending = queue.files.filter((f) => f.status !== 'done')

  async function send() {
    setBusy(true)
    const ok = await queue.upload(issueKey)
    setBusy(false)
    // The issue read again lists the files that arrived: only the refused ones stay here.
    await invalidateIssues()
    queue.clearDone()
    if (ok) notifySuccess(t`Allegati caricati`)
  }

  return (
    <Stack gap="xs">
      <AttachmentPicker files={queue.files} max={queue.max} onAdd={queue.add} onRemove={queue.remove} disabled={busy} touch={touch} />
      {pending.length > 0 && (
        <Group>
          <Button size={touch ? 'lg' : 'sm'} onClick={() => void send()} loading={busy} data-testid="attachments-upload">
            <Trans>Carica</Trans>
          </Button>
        </Group>
      )}
    </Stack>
  )
}
