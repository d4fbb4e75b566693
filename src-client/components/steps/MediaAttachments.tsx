import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Badge, Box, Button, CloseButton, FileButton, Group, Image, Paper, Stack, Text, Tooltip } from '@mantine/core'
import { useState } from 'react'
import { isImageType, MAX_MEDIA_BYTES, MEDIA_ACCEPT, type MediaRow, mediaUrl } from '../../../src/domains/process/media'
import { formatBytes, uploadMedia } from '../../lib/media'
import { notifyError } from '../../lib/notify'
import { ApiError } from '../../lib/api-error'

const kindLabel = (contentType: string) => (contentType === 'application/pdf' ? 'PDF' : contentType.startsWith('video/') ? 'Video' : contentType)

/** One attached file: images as thumbnails, other files as links; both open in a new tab. */
export function MediaTile({ mediaKey, media, onRemove }: { mediaKey: string; media?: MediaRow; onRemove?: () => void }) {
  const { t } = useLingui()
  const url = media?.url ?? mediaUrl(mediaKey)
  const name = media?.filename ?? '…'
  return (
    <Paper withBorder radius="sm" p={6} w={150} pos="relative" data-testid="media-tile">
      {onRemove && (
        <CloseButton
          size="sm"
          pos="absolute"
          top={2}
          right={2}
          style={{ zIndex: 1, background: 'var(--mantine-color-body)' }}
          aria-label={t`Rimuovi ${name}`}
          onClick={onRemove}
        />
      )}
      <Anchor href={url} target="_blank" rel="noreferrer" underline="never" c="inherit">
        {media && isImageType(media.content_type) ? (
          <Image src={url} alt={name} h={84} w="100%" fit="cover" radius="xs" />
        ) : (
          <Box h={84} style={{ display: 'grid', placeItems: 'center', background: 'var(--mes-surface-1, #f1f3f5)', borderRadius: 4 }}>
            <Badge variant="light" size="lg">
              {media ? kindLabel(media.content_type) : '…'}
            </Badge>
          </Box>
        )}
        <Tooltip label={name} openDelay={400}>
          <Text size="xs" mt={4} truncate="end">
            {name}
          </Text>
        </Tooltip>
      </Anchor>
      {media && (
        <Text size="xs" c="dimmed">
          {formatBytes(media.size)}
        </Text>
      )}
    </Paper>
  )
}

/**
 * The media of one step: tiles, remove, and an upload button (`POST media/create`; the server
 * decides the type from the bytes, the size limit is checked here first to spare the upload).
 */
export function MediaAttachments(props: {
  keys: string[]
  media: Map<string, MediaRow>
  /** Media uploaded here, to append to the step (when all uploads of a choice are done). */
  onAdd: (keys: string[]) => void
  onRemove: (key: string) => void
  onUploaded: (row: MediaRow) => void
  disabled?: boolean
}) {
  const { t } = useLingui()
  const [uploading, setUploading] = useState(false)

  async function upload(files: File[]) {
    if (files.length === 0) return
    setUploading(true)
    const added: string[] = []
    try {
      for (const file of files) {
        if (file.size > MAX_MEDIA_BYTES) {
          notifyError(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'file too large'))
          continue
        }
        try {
          const row = await uploadMedia(file)
          props.onUploaded(row)
          added.push(row._key)
        } catch (e) {
          notifyError(e)
        }
      }
    } finally {
      setUploading(false)
      if (added.length) props.onAdd(added)
    }
  }

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <Text size="sm" fw={500}>
          <Trans>Allegati</Trans>
        </Text>
        <FileButton onChange={(files) => void upload(files)} accept={MEDIA_ACCEPT} multiple disabled={props.disabled}>
          {(buttonProps) => (
            <Button {...buttonProps} variant="default" size="compact-sm" loading={uploading}>
              <Trans>Allega file</Trans>
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {t`Immagini (max 10 MB), PDF, video MP4/WebM (max 25 MB)`}
        </Text>
      </Group>
      {props.keys.length > 0 && (
        <Group gap="xs" align="flex-start">
          {props.keys.map((key) => (
            <MediaTile
              key={key}
              mediaKey={key}
              media={props.media.get(key)}
              onRemove={props.disabled ? undefined : () => props.onRemove(key)}
            />
          ))}
        </Group>
      )}
    </Stack>
  )
}
