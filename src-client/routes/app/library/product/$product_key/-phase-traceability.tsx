import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { TRACEABILITY_LEVELS, type TraceabilityLevel } from '../../../../../../src/domains/products/bom'
import { TRACEABILITY_LABELS } from '../../../../../lib/library-labels'
import { trpc } from '../../../../../lib/trpc'

type Value = { traceability_level: TraceabilityLevel; counter_key: string | null }

/**
 * A phase's traceability (SPEC 4): its level and the counter numbering what it produces. The
 * counters come from admin/counter; a counter deleted meanwhile shows as its key's absence.
 */
export function PhaseTraceability({ value, editing, onChange }: { value: Value; editing: boolean; onChange: (patch: Partial<Value>) => void }) {
  const { t, i18n } = useLingui()
  const { data: counters } = useQuery(trpc.process.counterChoices.queryOptions())
  const counterOptions = (counters ?? []).map((c) => ({ value: c._key, label: `${c.name} (${c.template})` }))
  const counterName = counters?.find((c) => c._key === value.counter_key)?.name

  return (
    <Paper withBorder p="md" radius="md" data-testid="phase-traceability">
      <Stack gap="sm">
        <Title order={5}>
          <Trans>Tracciabilità</Trans>
        </Title>
        {editing ? (
          <Group align="flex-end" gap="lg" wrap="wrap">
            <Stack gap={4}>
              <Text size="sm" fw={500} id="phase-traceability-level">
                <Trans>Livello di tracciabilità</Trans>
              </Text>
              <SegmentedControl
                aria-labelledby="phase-traceability-level"
                data={TRACEABILITY_LEVELS.map((l) => ({ value: l, label: i18n._(TRACEABILITY_LABELS[l]) }))}
                value={value.traceability_level}
                onChange={(v) => onChange({ traceability_level: v as TraceabilityLevel })}
              />
            </Stack>
            <Select
              label={t`Contatore dei seriali`}
              description={t`Numera ciò che la fase produce`}
              placeholder={t`Nessun contatore`}
              data={counterOptions}
              value={value.counter_key}
              onChange={(v) => onChange({ counter_key: v })}
              clearable
              searchable
              nothingFoundMessage={t`Nessun contatore: creane uno in Impostazioni`}
              comboboxProps={{ withinPortal: true }}
              miw={260}
            />
          </Group>
        ) : (
          <Group gap="lg">
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                <Trans>Livello</Trans>:
              </Text>{' '}
              <span data-testid="phase-traceability-level">{i18n._(TRACEABILITY_LABELS[value.traceability_level])}</span>
            </Text>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                <Trans>Contatore</Trans>:
              </Text>{' '}
              <span data-testid="phase-counter">{value.counter_key ? (counterName ?? '…') : t`Nessun contatore`}</span>
            </Text>
          </Group>
        )}
      </Stack>
    </Paper>
  )
}
