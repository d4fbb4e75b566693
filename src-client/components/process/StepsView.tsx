import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Card, Group, Stack, Text } from '@mantine/core'
import { useMemo } from 'react'
import type { FieldRow } from '../../../src/domains/form-fields/schemas'
import { type Step, stepMediaKeys } from '../../../src/domains/process/steps'
import { FIELD_TYPE_LABELS, STEP_TYPE_LABELS } from '../../lib/library-labels'
import { useMediaRows } from '../../lib/media'
import { MediaTile } from '../steps/MediaAttachments'

/** The steps of a phase as read outside edit mode: title, text, form fields (mandatory marked) and media. */
export function StepsView({ steps, fields }: { steps: Step[]; fields: FieldRow[] }) {
  const { i18n } = useLingui()
  const media = useMediaRows(stepMediaKeys(steps))
  const fieldsByKey = useMemo(() => new Map(fields.map((f) => [f._key, f])), [fields])
  if (steps.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        <Trans>Nessun passo in questa fase.</Trans>
      </Text>
    )
  }
  return (
    <Stack gap="sm" data-testid="steps-view">
      {steps.map((step, index) => (
        <Card key={step._key} withBorder radius="md" padding="md" data-testid={`step-${index}`}>
          <Stack gap="xs">
            <Group gap="sm" wrap="nowrap">
              <Badge size="lg" variant="light" color={step.type === 'form' ? 'grape' : 'teal'} miw={130}>
                {index + 1}. {i18n._(STEP_TYPE_LABELS[step.type])}
              </Badge>
              <Text fw={600}>{step.title || '—'}</Text>
            </Group>
            {step.text && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {step.text}
              </Text>
            )}
            {step.fields.length > 0 && (
              <Group gap={6}>
                {step.fields.map((key) => {
                  const f = fieldsByKey.get(key)
                  return (
                    <Badge key={key} variant="outline" color={f?.mandatory ? 'red' : 'gray'} tt="none" size="lg" fw={500}>
                      {f ? `${f.name} · ${i18n._(FIELD_TYPE_LABELS[f.type])}` : '…'}
                      {f?.mandatory ? ' *' : ''}
                    </Badge>
                  )
                })}
              </Group>
            )}
            {step.media.length > 0 && (
              <Group gap="xs" align="flex-start">
                {step.media.map((key) => (
                  <MediaTile key={key} mediaKey={key} media={media.get(key)} />
                ))}
              </Group>
            )}
          </Stack>
        </Card>
      ))}
      {steps.some((s) => s.fields.some((k) => fieldsByKey.get(k)?.mandatory)) && (
        <Text size="xs" c="dimmed">
          <Trans>* campo obbligatorio: va compilato prima di completare il passo.</Trans>
        </Text>
      )}
    </Stack>
  )
}
