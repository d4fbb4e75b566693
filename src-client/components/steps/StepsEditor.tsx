import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Badge, Button, Card, Group, MultiSelect, Select, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core'
import { useMemo, useRef, useState } from 'react'
import type { FieldRow } from '../../../src/domains/form-fields/schemas'
import type { MediaRow } from '../../../src/domains/process/media'
import { SCOPES, type Scope } from '../../../src/auth/scopes'
import { MAX_STEP_TEXT, SIGNATURE_MEANINGS, type SignatureMeaning, type Step, type StepType, stepMediaKeys } from '../../../src/domains/process/steps'
import { FIELD_TYPE_LABELS, SIGNATURE_MEANING_LABELS, STEP_TYPE_LABELS } from '../../lib/library-labels'
import { SCOPE_LABELS } from '../../lib/scope-labels'
import { useMediaRows } from '../../lib/media'
import { MediaAttachments } from './MediaAttachments'

/** A new step key; works on plain-http plant networks too, where crypto.randomUUID is missing. */
export function newStepKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export const emptyStep = (type: StepType): Step => ({ _key: newStepKey(), type, title: '', text: '', media: [], fields: [], print_templates: [], signature: null })

/** The client-side reading of the step rules: a form step needs at least one field. */
export const stepsValid = (steps: readonly Step[]) => steps.every((s) => s.type !== 'form' || s.fields.length > 0)

/**
 * Ordered steps of a phase or of an operation's defaults: add instruction/form steps, edit title
 * and text, attach media, choose form fields, move up/down, remove. Controlled: `onChange` gets
 * the whole new list. Operations use it now; product phases reuse it.
 */
export function StepsEditor(props: { steps: Step[]; onChange: (steps: Step[]) => void; fields: FieldRow[]; showErrors?: boolean; disabled?: boolean }) {
  const { t, i18n } = useLingui()
  const { steps, onChange } = props
  const [uploaded, setUploaded] = useState<MediaRow[]>([])
  const media = useMediaRows(stepMediaKeys(steps), uploaded)
  const fieldsByKey = useMemo(() => new Map(props.fields.map((f) => [f._key, f])), [props.fields])

  // Uploads finish later: they must change the steps as they are then, not as they were.
  const latest = useRef(steps)
  latest.current = steps
  const update = (key: string, patch: (step: Step) => Partial<Step>) =>
    onChange(latest.current.map((s) => (s._key === key ? { ...s, ...patch(s) } : s)))
  const move = (index: number, by: -1 | 1) => {
    const next = [...steps]
    const [moved] = next.splice(index, 1)
    next.splice(index + by, 0, moved!)
    onChange(next)
  }

  return (
    <Stack gap="sm" data-testid="steps-editor">
      {steps.length === 0 && (
        <Text c="dimmed" size="sm">
          <Trans>Nessun passo: aggiungi un'istruzione o un modulo.</Trans>
        </Text>
      )}
      {steps.map((step, index) => {
        const fieldOptions = props.fields
          .filter((f) => f.active || step.fields.includes(f._key))
          .map((f) => ({ value: f._key, label: f.active ? f.name : t`${f.name} (archiviato)` }))
        const missingFields = step.type === 'form' && step.fields.length === 0
        return (
          <Card key={step._key} withBorder radius="md" padding="md" data-testid={`step-${index}`}>
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group gap="sm" wrap="nowrap" style={{ flex: 1 }}>
                  <Badge size="lg" variant="light" color={step.type === 'form' ? 'grape' : 'teal'} miw={130}>
                    {index + 1}. {i18n._(STEP_TYPE_LABELS[step.type])}
                  </Badge>
                  <TextInput
                    aria-label={t`Titolo del passo ${index + 1}`}
                    placeholder={t`Titolo del passo`}
                    value={step.title}
                    maxLength={200}
                    onChange={(e) => {
                      const title = e.currentTarget.value
                      update(step._key, () => ({ title }))
                    }}
                    disabled={props.disabled}
                    style={{ flex: 1 }}
                  />
                </Group>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t`Sposta su`}>
                    <ActionIcon variant="default" size="lg" aria-label={t`Sposta su il passo ${index + 1}`} disabled={props.disabled || index === 0} onClick={() => move(index, -1)}>
                      ↑
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t`Sposta giù`}>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      aria-label={t`Sposta giù il passo ${index + 1}`}
                      disabled={props.disabled || index === steps.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      ↓
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t`Rimuovi passo`}>
                    <ActionIcon
                      variant="light"
                      color="red"
                      size="lg"
                      aria-label={t`Rimuovi il passo ${index + 1}`}
                      disabled={props.disabled}
                      onClick={() => onChange(steps.filter((_, i) => i !== index))}
                    >
                      ✕
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
              <Textarea
                label={step.type === 'form' ? t`Indicazioni` : t`Testo`}
                autosize
                minRows={step.type === 'form' ? 2 : 3}
                maxRows={14}
                maxLength={MAX_STEP_TEXT}
                value={step.text}
                onChange={(e) => {
                  const text = e.currentTarget.value
                  update(step._key, () => ({ text }))
                }}
                disabled={props.disabled}
              />
              {step.type === 'form' && (
                <MultiSelect
                  label={t`Campi del modulo`}
                  placeholder={step.fields.length ? undefined : t`Scegli i campi da compilare`}
                  withAsterisk
                  searchable
                  nothingFoundMessage={t`Nessun campo trovato`}
                  data={fieldOptions}
                  value={step.fields}
                  onChange={(fields) => update(step._key, () => ({ fields }))}
                  disabled={props.disabled}
                  error={props.showErrors && missingFields ? t`Scegli almeno un campo` : null}
                  renderOption={({ option }) => {
                    const f = fieldsByKey.get(option.value)
                    return (
                      <Group gap="xs" justify="space-between" w="100%" wrap="nowrap">
                        <Text size="sm">{option.label}</Text>
                        <Group gap={4} wrap="nowrap">
                          {f?.mandatory && (
                            <Badge size="xs" color="red" variant="light">
                              <Trans>obbligatorio</Trans>
                            </Badge>
                          )}
                          {f && (
                            <Badge size="xs" variant="outline" color="gray">
                              {i18n._(FIELD_TYPE_LABELS[f.type])}
                            </Badge>
                          )}
                        </Group>
                      </Group>
                    )
                  }}
                />
              )}
              <StepSignatureOptions
                index={index}
                signature={step.signature}
                onChange={(signature) => update(step._key, () => ({ signature }))}
                disabled={props.disabled}
              />
              <MediaAttachments
                keys={step.media}
                media={media}
                onAdd={(keys) => update(step._key, (s) => ({ media: [...new Set([...s.media, ...keys])] }))}
                onRemove={(key) => update(step._key, (s) => ({ media: s.media.filter((k) => k !== key) }))}
                onUploaded={(row) => setUploaded((rows) => [...rows, row])}
                disabled={props.disabled}
              />
            </Stack>
          </Card>
        )
      })}
      <Group gap="sm">
        <Button variant="light" onClick={() => onChange([...steps, emptyStep('instruction')])} disabled={props.disabled}>
          <Trans>Aggiungi istruzione</Trans>
        </Button>
        <Button variant="light" color="grape" onClick={() => onChange([...steps, emptyStep('form')])} disabled={props.disabled}>
          <Trans>Aggiungi modulo</Trans>
        </Button>
      </Group>
    </Stack>
  )
}

const NONE = 'none'

/** Whether completing the step must be signed, with which meaning, and by which second signer (issue 22). */
function StepSignatureOptions(props: { index: number; signature: Step['signature']; onChange: (signature: Step['signature']) => void; disabled?: boolean }) {
  const { t, i18n } = useLingui()
  const { signature } = props
  const position = props.index + 1
  return (
    <Group gap="sm" align="flex-end" data-testid={`step-signature-${props.index}`}>
      <Select
        label={t`Firma elettronica`}
        aria-label={t`Firma del passo ${position}`}
        data={[{ value: NONE, label: t`Nessuna firma` }, ...SIGNATURE_MEANINGS.map((m) => ({ value: m, label: i18n._(SIGNATURE_MEANING_LABELS[m]) }))]}
        value={signature?.meaning ?? NONE}
        allowDeselect={false}
        onChange={(value) =>
          props.onChange(!value || value === NONE ? null : { meaning: value as SignatureMeaning, second_signer: signature?.second_signer ?? null })
        }
        disabled={props.disabled}
        w={220}
      />
      {signature && (
        <Select
          label={t`Secondo firmatario`}
          aria-label={t`Secondo firmatario del passo ${position}`}
          data={[{ value: NONE, label: t`Nessuno` }, ...SCOPES.map((s) => ({ value: s, label: t`Con il permesso ${i18n._(SCOPE_LABELS[s])}` }))]}
          value={signature.second_signer ?? NONE}
          allowDeselect={false}
          onChange={(value) => props.onChange({ meaning: signature.meaning, second_signer: !value || value === NONE ? null : (value as Scope) })}
          disabled={props.disabled}
          w={280}
        />
      )}
    </Group>
  )
}
