import { Paper, Stack, Text, Title } from '@mantine/core'
import { useLingui } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import type { Area } from '../lib/areas'

/** An area's landing screen until its own screens are built: title and layout only. */
export function AreaHome({ area }: { area: Area }) {
  const { i18n } = useLingui()
  return (
    <Stack>
      <Title order={2}>{i18n._(area.title)}</Title>
      <Paper p="lg" withBorder>
        <Text c="dimmed">
          <Trans>Le schermate di quest'area non sono ancora disponibili.</Trans>
        </Text>
      </Paper>
    </Stack>
  )
}
