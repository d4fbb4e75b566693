import { Trans } from '@lingui/react/macro'
import { Badge, Box, Button, Group, Paper, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * The head of a page with its own edit mode (SPEC 4): the title with a badge ("In modifica" while
 * editing, `summary` otherwise), then `actions` (what starts editing) or cancel and save. It sticks
 * below the 60 px app header, so save and cancel stay in view on long pages.
 */
export function EditModeBar(props: {
  title: ReactNode
  summary: ReactNode
  editing: boolean
  dirty: boolean
  saving: boolean
  onCancel: () => void
  onSave: () => void
  saveLabel: ReactNode
  actions: ReactNode
}) {
  const { editing, dirty, saving } = props
  return (
    <Box pos="sticky" top={60} pt={8} mt={-8} style={{ zIndex: 3, background: 'var(--mantine-color-body)' }}>
      <Paper withBorder p="sm" radius="md" shadow={editing ? 'sm' : undefined}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Title order={3}>{props.title}</Title>
            {editing ? (
              <Badge color="orange" variant="light">
                <Trans>In modifica</Trans>
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                {props.summary}
              </Badge>
            )}
          </Group>
          {editing ? (
            <Group gap="sm" wrap="nowrap">
              {dirty && (
                <Text size="sm" c="dimmed">
                  <Trans>Modifiche non salvate</Trans>
                </Text>
              )}
              <Button variant="default" onClick={props.onCancel} disabled={saving}>
                <Trans>Annulla</Trans>
              </Button>
              <Button onClick={props.onSave} loading={saving} disabled={!dirty}>
                {props.saveLabel}
              </Button>
            </Group>
          ) : (
            props.actions
          )}
        </Group>
      </Paper>
    </Box>
  )
}
