import { Trans } from '@lingui/react/macro'
import { Anchor, Box, Button, Group, Image, Stack, Text } from '@mantine/core'

export type Viewable = { name: string; url: string; content_type: string }

export const isImage = (m: Viewable) => m.content_type.startsWith('image/')
export const isPdf = (m: Viewable) => m.content_type === 'application/pdf'
export const isVideo = (m: Viewable) => m.content_type.startsWith('video/')

/**
 * A document or medium viewable on a tablet: images inline, PDFs in a frame (with "open in a
 * new tab", which tablets without an inline PDF viewer need), videos with controls, anything
 * else as a download.
 */
export function MediaView({ item, height = 420 }: { item: Viewable; height?: number }) {
  const openButton = (
    <Button component="a" href={item.url} target="_blank" rel="noopener" variant="default" size="md">
      <Trans>Apri in una nuova scheda</Trans>
    </Button>
  )
  const caption = (
    <Group justify="space-between" wrap="nowrap">
      <Text size="md" fw={600} lineClamp={1}>
        {item.name}
      </Text>
      {openButton}
    </Group>
  )
  if (isImage(item)) {
    return (
      <Stack gap="xs">
        {caption}
        <Anchor href={item.url} target="_blank" rel="noopener">
          <Image src={item.url} alt={item.name} fit="contain" mah={height} radius="sm" bg="var(--mes-surface-2)" />
        </Anchor>
      </Stack>
    )
  }
  if (isPdf(item)) {
    return (
      <Stack gap="xs">
        {caption}
        <Box component="iframe" src={item.url} title={item.name} h={height} w="100%" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }} />
      </Stack>
    )
  }
  if (isVideo(item)) {
    return (
      <Stack gap="xs">
        <video src={item.url} controls style={{ maxHeight: height, width: '100%' }}>
          <track kind="captions" />
        </video>
        <Text size="sm" c="dimmed">
          {item.name}
        </Text>
      </Stack>
    )
  }
  return (
    <Group justify="space-between">
      <Text>{item.name}</Text>
      <Button component="a" href={item.url} download={item.name} size="md" variant="default">
        <Trans>Scarica</Trans>
      </Button>
    </Group>
  )
}
