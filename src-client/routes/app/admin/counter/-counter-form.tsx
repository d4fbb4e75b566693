import { Trans, useLingui } from '@lingui/react/macro'
import { Code, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { COUNTER_NAME_MAX, COUNTER_NEXT_VALUE_MAX, COUNTER_TEMPLATE_MAX, type CounterRow } from '../../../../../src/domains/counters/schemas'
import {
  COUNTER_FREQUENCIES,
  type CounterFrequency,
  parseTemplate,
  periodStart,
  renderTemplate,
  sequenceMax,
  templateProblem,
} from '../../../../../src/domains/counters/template'
import { formatDate } from '../../../../../src/i18n/format'
import { type NumberRules, readNumberText } from '../../../../../src/i18n/number-text'
import { NumberTextInput, toNumberText } from '../../../../components/NumberTextInput'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { ApiError, toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { DeleteButton } from '../-library-pages'
import { FormFooter } from '../-library-ui'
import { useFrequencyLabels } from './-frequency'

type Draft = { name: string; template: string; frequency: CounterFrequency; next_value: string }

const draftOf = (row?: CounterRow): Draft => ({
  name: row?.name ?? '',
  template: row?.template ?? '',
  frequency: row?.frequency ?? 'never',
  next_value: toNumberText(row?.next_value ?? 1),
})

const NEXT_RULES: NumberRules = { min: 1, max: COUNTER_NEXT_VALUE_MAX, integer: true }
const sameDraft = (a: Draft, b: Draft) => (Object.keys(a) as (keyof Draft)[]).every((k) => a[k] === b[k])

/** The code the next request would get now, from the draft (the same template module as the server). */
function preview(draft: Draft, nextValue: number | null): { code?: string; problem?: string } {
  const problem = templateProblem(draft.template, draft.frequency)
  if (problem) return { problem: errorMessage(new ApiError(400, problem.code, '')) }
  const parsed = parseTemplate(draft.template)
  if (!parsed.ok || nextValue === null) return {}
  if (nextValue > sequenceMax(parsed.width)) return { problem: errorMessage(new ApiError(409, 'COUNTER_SEQUENCE_FULL', '')) }
  return { code: renderTemplate(parsed.parts, new Date(), nextValue) }
}

/** New counter or an existing one, with a live preview of the next code. */
export function CounterForm({ counter }: { counter?: CounterRow }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const frequencyLabels = useFrequencyLabels()
  const initial = draftOf(counter)
  const [draft, setDraft] = useState<Draft>(initial)
  const [showErrors, setShowErrors] = useState(false)
  const [serverErrors, setServerErrors] = useState<{ name?: string; template?: string }>({})
  const [saving, setSaving] = useState(false)
  const dirty = !sameDraft(draft, initial)
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch })
    setServerErrors({})
  }

  const next = readNumberText(draft.next_value, { ...NEXT_RULES, required: true })
  const nextError = next.ok ? null : t`Inserisci il prossimo valore (da 1)`
  const nextValue = next.ok ? next.value : null
  const shown = preview(draft, nextValue)
  const nameError = serverErrors.name ?? (showErrors && !draft.name.trim() ? t`Il nome è obbligatorio` : null)
  const templateError = serverErrors.template ?? (showErrors || draft.template ? (shown.problem ?? null) : null)
  const resetDate = periodStart(new Date(), draft.frequency)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!draft.name.trim() || shown.problem || !next.ok || next.value === null) return
    setSaving(true)
    try {
      const input = { name: draft.name.trim(), template: draft.template, frequency: draft.frequency }
      // An unchanged next value is not sent: the server keeps counting (and resetting) on its own.
      const nextChanged = !counter || next.value !== counter.next_value
      const row = counter
        ? await trpcClient.counters.patch.mutate({ key: counter._key, patch: { ...input, ...(nextChanged ? { next_value: next.value } : {}) } })
        : await trpcClient.counters.create.mutate({ ...input, next_value: next.value })
      queryClient.setQueryData(trpc.counters.get.queryKey({ key: row._key }), row)
      await queryClient.invalidateQueries({ queryKey: trpc.counters.list.pathKey() })
      notifySuccess(counter ? t`Contatore aggiornato` : t`Contatore creato`)
      if (!counter) await navigate({ to: '/app/admin/counter/$counter_key', params: { counter_key: row._key }, ignoreBlocker: true })
    } catch (err) {
      const error = toApiError(err)
      if (error.code === 'COUNTER_NAME_TAKEN' || error.code === 'COUNTER_NAME_REQUIRED') setServerErrors({ name: errorMessage(error) })
      else if (error.code.startsWith('COUNTER_TEMPLATE') || error.code === 'COUNTER_SEQUENCE_FULL') setServerErrors({ template: errorMessage(error) })
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Paper withBorder p="lg" radius="md" maw={720}>
        <Stack gap="md">
          <TextInput label={t`Nome`} name="name" withAsterisk maxLength={COUNTER_NAME_MAX} value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} error={nameError} />
          <TextInput
            label={t`Modello`}
            name="template"
            withAsterisk
            maxLength={COUNTER_TEMPLATE_MAX}
            description={t`Testo libero con le parti tra graffe: anno, mese, giorno, settimana ISO e una sequenza di cifre. Esempio: ${'SN{YY}{MM}-{#####}'}`}
            value={draft.template}
            onChange={(e) => set({ template: e.currentTarget.value })}
            error={templateError}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Text size="xs" c="dimmed">
            <Code>{'{YYYY}'}</Code> <Code>{'{YY}'}</Code> <Code>{'{MM}'}</Code> <Code>{'{DD}'}</Code> <Code>{'{WW}'}</Code> <Code>{'{#####}'}</Code>
          </Text>
          <Group grow align="flex-start">
            <Select
              label={t`Azzeramento`}
              name="frequency"
              allowDeselect={false}
              data={COUNTER_FREQUENCIES.map((f) => ({ value: f, label: frequencyLabels[f] }))}
              value={draft.frequency}
              onChange={(v) => v && set({ frequency: v as CounterFrequency })}
            />
            <NumberTextInput
              label={t`Prossimo valore`}
              name="next_value"
              {...NEXT_RULES}
              value={draft.next_value}
              onChange={(text) => set({ next_value: text })}
              error={showErrors || dirty ? nextError : null}
            />
          </Group>
          <Paper withBorder p="sm" radius="sm" bg="var(--mantine-color-gray-light)">
            <Group justify="space-between" wrap="wrap">
              <div>
                <Text size="xs" c="dimmed">
                  <Trans>Prossimo codice</Trans>
                </Text>
                <Text fw={700} ff="monospace" size="lg" data-testid="counter-preview">
                  {shown.code ?? '—'}
                </Text>
              </div>
              {resetDate && (
                <div>
                  <Text size="xs" c="dimmed">
                    <Trans>Ultimo azzeramento</Trans>
                  </Text>
                  <Text size="sm">{counter && counter.frequency === draft.frequency ? counter.reset_date : formatDate(new Date(`${resetDate}T12:00:00`))}</Text>
                </div>
              )}
              {counter?.next_tick && counter.frequency === draft.frequency && (
                <div>
                  <Text size="xs" c="dimmed">
                    <Trans>Prossimo azzeramento</Trans>
                  </Text>
                  <Text size="sm">{counter.next_tick}</Text>
                </div>
              )}
            </Group>
          </Paper>
          <FormFooter
            isNew={!counter}
            dirty={dirty}
            saving={saving}
            onCancel={() => {
              if (!counter) return navigate({ to: '/app/admin/counter', ignoreBlocker: true })
              setDraft(initial)
              setShowErrors(false)
              setServerErrors({})
            }}
            createLabel={<Trans>Crea contatore</Trans>}
            left={
              counter && (
                <DeleteButton onClick={() => navigate({ to: '/app/admin/counter/$counter_key/delete', params: { counter_key: counter._key } })}>
                  <Trans>Elimina contatore</Trans>
                </DeleteButton>
              )
            }
          />
        </Stack>
      </Paper>
    </form>
  )
}
