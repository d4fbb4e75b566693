import { Trans } from '@lingui/react/macro'
import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { SettingsRow } from '../../../../../src/domains/settings/schemas'
import { queryClient, trpc } from '../../../../lib/trpc'

/** One block of a settings tab: a titled surface with an optional explanation. */
export function Section({ title, description, children }: { title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <div>
          <Title order={4}>{title}</Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  )
}

export type SettingsColumn = { label?: ReactNode; w?: number; ta?: 'right' }

/** A list in a settings tab (departments, printers, serial fields, print templates): its headings, its rows, a line while it has none. */
export function SettingsTable({ testid, columns, empty, children }: { testid: string; columns: SettingsColumn[]; empty: ReactNode; children: ReactNode }) {
  return (
    <Table verticalSpacing="sm" striped data-testid={testid}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c, i) => (
            <Table.Th key={i} w={c.w} ta={c.ta}>
              {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {children}
        {empty && (
          <Table.Tr>
            <Table.Td colSpan={columns.length}>
              <Text c="dimmed" ta="center" py="md">
                {empty}
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  )
}

/**
 * Save and cancel for a settings form: both idle until something changed. With `sticky`, a form
 * taller than the screen keeps them in view at the bottom of the window while it has changes.
 */
export function FormActions({ dirty, saving, onCancel, sticky }: { dirty: boolean; saving: boolean; onCancel: () => void; sticky?: boolean }) {
  const buttons = (
    <Group justify="flex-end" gap="sm">
      {sticky && dirty && (
        <Text size="sm" c="dimmed" mr="auto">
          <Trans>Modifiche non salvate</Trans>
        </Text>
      )}
      <Button variant="default" onClick={onCancel} disabled={!dirty || saving}>
        <Trans>Annulla</Trans>
      </Button>
      <Button type="submit" disabled={!dirty} loading={saving}>
        <Trans>Salva</Trans>
      </Button>
    </Group>
  )
  if (!sticky || !dirty) return buttons
  return (
    <Paper withBorder shadow="md" p="sm" radius="md" pos="sticky" bottom={12} style={{ zIndex: 2 }}>
      {buttons}
    </Paper>
  )
}

/** The general settings, shared by the company and "other" tabs. */
export function useSettings() {
  return useQuery(trpc.settings.get.queryOptions())
}

export function storeSettings(row: SettingsRow) {
  queryClient.setQueryData(trpc.settings.get.queryKey(), row)
}

/** Same object, key by key (the forms compare their draft with what the server holds). */
export function sameValues<T extends object>(a: T, b: T): boolean {
  return Object.keys(a).every((k) => Object.is(a[k as keyof T], b[k as keyof T]))
}

