import { Trans } from '@lingui/react/macro'
import { Badge, Group } from '@mantine/core'
import type { Tag } from '../../../src/domains/products/schemas'

/** Active, inactive or in the trash (SPEC 4 Product states). */
export function ProductStateBadge({ active, trash, size = 'sm' }: { active: boolean; trash: boolean; size?: 'sm' | 'md' | 'lg' }) {
  if (trash) {
    return (
      <Badge color="red" variant="light" size={size} data-testid="state-badge">
        <Trans>Nel cestino</Trans>
      </Badge>
    )
  }
  return active ? (
    <Badge color="teal" variant="light" size={size} data-testid="state-badge">
      <Trans>Attivo</Trans>
    </Badge>
  ) : (
    <Badge color="orange" variant="light" size={size} data-testid="state-badge">
      <Trans>Non attivo</Trans>
    </Badge>
  )
}

export function TagBadges({ tags, max = 4, size = 'sm' }: { tags: Tag[]; max?: number; size?: 'sm' | 'md' | 'lg' }) {
  if (tags.length === 0) return null
  const shown = tags.slice(0, max)
  return (
    <Group gap={4}>
      {shown.map((t) => (
        <Badge key={t._key} variant={size === 'sm' ? 'outline' : 'light'} color="gray" size={size} tt="none" fw={500}>
          {t.name}
        </Badge>
      ))}
      {tags.length > max && (
        <Badge variant="transparent" color="gray" size={size}>
          +{tags.length - max}
        </Badge>
      )}
    </Group>
  )
}
