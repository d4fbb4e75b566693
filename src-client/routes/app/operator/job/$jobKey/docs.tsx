import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Grid, Loader, Paper, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { isImage, isPdf, isVideo, MediaView, type Viewable } from '../../../../../components/operator/MediaView'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { BACKGROUND, trpc } from '../../../../../lib/trpc'

/** Product documents and the media of this phase's steps, viewable on the tablet. */
export const Route = createFileRoute('/app/operator/job/$jobKey/docs')({
  component: DocsTab,
})

type Item = Viewable & { id: string; source: string }

function DocsTab() {
  const { view } = useWorkSession()
  const product = useQuery(trpc.products.get.queryOptions({ key: view.product._key }, { trpc: BACKGROUND }))
  const docs: Item[] = (product.data?.docs ?? []).map((d) => ({ id: `doc:${d.name}`, name: d.name, url: d.url, content_type: d.content_type, source: 'doc' }))
  const media: Item[] = view.steps.flatMap((s, i) =>
    s.media.map((m) => ({ id: `step:${s._key}:${m._key}`, name: m.filename, url: m.url, content_type: m.content_type, source: s.title || String(i + 1) })),
  )
  const items = [...docs, ...media]
  const [selected, setSelected] = useState<string | null>(null)
  const current = items.find((i) => i.id === selected) ?? items[0]

  if (product.isPending && media.length === 0) return <Loader />
  if (items.length === 0) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed" size="lg">
          <Trans>Nessun documento per questo prodotto e nessun allegato nei passi della fase.</Trans>
        </Text>
      </Paper>
    )
  }
  return (
    <Grid gap="sm" data-testid="docs-tab">
      <Grid.Col span={4}>
        <ScrollArea.Autosize mah={480}>
          <Stack gap={6}>
            {docs.length > 0 && (
              <Text size="sm" fw={700} c="dimmed">
                <Trans>Documenti del prodotto</Trans>
              </Text>
            )}
            {docs.map((d) => (
              <DocButton key={d.id} item={d} active={current?.id === d.id} onClick={() => setSelected(d.id)} />
            ))}
            {media.length > 0 && (
              <Text size="sm" fw={700} c="dimmed" mt="xs">
                <Trans>Allegati dei passi</Trans>
              </Text>
            )}
            {media.map((d) => (
              <DocButton key={d.id} item={d} active={current?.id === d.id} onClick={() => setSelected(d.id)} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Grid.Col>
      <Grid.Col span={8}>{current && <MediaView item={current} height={380} />}</Grid.Col>
    </Grid>
  )
}

function DocButton({ item, active, onClick }: { item: Item; active: boolean; onClick: () => void }) {
  const { t } = useLingui()
  const kind = isPdf(item) ? 'PDF' : isImage(item) ? t`Immagine` : isVideo(item) ? t`Video` : t`Documento`
  return (
    <UnstyledButton
      onClick={onClick}
      mih={52}
      px="sm"
      py={6}
      style={{
        borderRadius: 6,
        border: `2px solid ${active ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-default-border)'}`,
        background: active ? 'var(--mantine-color-teal-light)' : 'var(--mes-surface-1)',
      }}
    >
      <Text size="md" fw={600} lineClamp={1}>
        {item.name}
      </Text>
      <Badge size="sm" variant="outline" color="gray">
        {kind}
      </Badge>{' '}
      {item.source !== 'doc' && (
        <Text span size="xs" c="dimmed">
          <Trans>Passo {item.source}</Trans>
        </Text>
      )}
    </UnstyledButton>
  )
}
