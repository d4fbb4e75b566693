import { Paper, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** A tab whose content another area of the product brings (quality, traceability). */
export function ComingWith({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl" ta="center" data-testid="tab-placeholder">
      <Title order={4} mb="xs">
        {title}
      </Title>
      <Text c="dimmed" size="sm" maw={560} mx="auto">
        {children}
      </Text>
    </Paper>
  )
}
