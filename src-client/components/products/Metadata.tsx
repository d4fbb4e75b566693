import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Anchor, Badge, Button, CloseButton, FileButton, Group, MultiSelect, Paper, Select, Stack, TagsInput, Text, TextInput, Textarea, Tooltip } from '@mantine/core'
import { useState } from 'react'
import type { FieldRow } from '../../../src/domains/form-fields/schemas'
import { DOC_ACCEPT, MAX_DOC_BYTES, productFieldFileUrl } from '../../../src/domains/products/files'
import { checkMetadataValue, isEmptyValue, isIsoDate, takesArray } from '../../../src/domains/products/metadata'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { capitalised, issueText } from '../../lib/input-issue-messages'
import { FIELD_TYPE_LABELS } from '../../lib/library-labels'
import { numbersFromText, numberTextProblem } from '../../lib/number-field-values'
import { type ProductMetadataItem as MetadataItem, uploadFieldFiles } from '../../lib/products'
import { DateField } from '../DateField'
import { NumberTextInput, toNumberText } from '../NumberTextInput'

export type MetadataProblem = { required: boolean }

/** The items whose value does not fit (by field key), checked with the same rule as the server. */
/** The value as it is saved: a number field's typed text becomes its number (lib/number-field-values.ts). */
export const metadataValue = (field: FieldRow | undefined, value: unknown) => (field?.type === 'number' ? numbersFromText(value) : value)

export function metadataProblems(items: MetadataItem[], fields: ReadonlyMap<string, FieldRow>): Map<string, MetadataProblem> {
  const problems = new Map<string, MetadataProblem>()
  for (const item of items) {
    const field = fields.get(item.custom_field_key)
    if (!field) continue
    const checked = checkMetadataValue(field, metadataValue(field, item.value))
    if (!checked.ok) problems.set(item.custom_field_key, { required: checked.required === true })
  }
  return problems
}

/** What the person reads for a value that does not fit its field. */
function useProblemText() {
  const { t } = useLingui()
  return (field: FieldRow, problem: MetadataProblem): string => {
    if (problem.required) return t`Campo obbligatorio: inserisci un valore`
    switch (field.type) {
      case 'number':
        return field.multiple ? t`Solo numeri` : t`Inserisci un numero`
      case 'date':
        return t`Data non valida (AAAA/MM/GG)`
      case 'time':
        return t`Ora non valida (HH:MM)`
      case 'choice':
        return t`Scegli tra le opzioni del campo`
      case 'text':
        return t`Testo troppo lungo`
      default:
        return t`Valore non valido`
    }
  }
}

/** Files of a files field that an edit removed (deleted from storage after saving). */
export function removedFiles(saved: MetadataItem[], next: MetadataItem[], fields: ReadonlyMap<string, FieldRow>): { field: string; names: string[] }[] {
  return saved.flatMap((item) => {
    if (fields.get(item.custom_field_key)?.type !== 'files' || !Array.isArray(item.value)) return []
    const kept = next.find((n) => n.custom_field_key === item.custom_field_key)?.value
    const names = (item.value as string[]).filter((n) => !(Array.isArray(kept) && kept.includes(n)))
    return names.length ? [{ field: item.custom_field_key, names }] : []
  })
}

/** Dates are stored 'YYYY-MM-DD' and read and typed as YYYY/MM/DD (SPEC 5). */
const dateText = (v: string) => (isIsoDate(v) ? v.replaceAll('-', '/') : v)
/** A single date field's value while its text is not a date (never saved: it is not a date). */
const UNREADABLE_DATE = 'unreadable'
const dateValue = (text: string) => {
  const iso = text.trim().replaceAll('/', '-')
  return isIsoDate(iso) ? iso : text
}

function useValueText() {
  const { t, i18n } = useLingui()
  return (field: FieldRow | undefined, value: unknown): string => {
    if (isEmptyValue(value)) return '—'
    const one = (v: unknown): string => {
      if (field?.type === 'boolean') return v === true ? t`Sì` : t`No`
      if (field?.type === 'ternary') return v === 'true' ? t`Sì` : v === 'false' ? t`No` : t`N.A.`
      if (field?.type === 'date' && typeof v === 'string') return dateText(v)
      if (field?.type === 'number' && typeof v === 'number') return i18n.number(v, { maximumFractionDigits: 10 })
      return String(v)
    }
    return Array.isArray(value) ? value.map(one).join(', ') : one(value)
  }
}

/** Custom metadata as read: field name and value (files as links). */
export function MetadataView({ items, fields, productKey }: { items: MetadataItem[]; fields: ReadonlyMap<string, FieldRow>; productKey: string }) {
  const text = useValueText()
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>Nessun dato personalizzato.</Trans>
      </Text>
    )
  }
  return (
    <Stack gap={6} data-testid="metadata-view">
      {items.map((item) => {
        const field = fields.get(item.custom_field_key)
        return (
          <Group key={item.custom_field_key} gap="xs" align="baseline" wrap="nowrap">
            <Text size="sm" c="dimmed" w={200} style={{ flexShrink: 0 }}>
              {field?.name ?? '…'}
            </Text>
            {field?.type === 'files' && Array.isArray(item.value) && item.value.length > 0 ? (
              <Group gap="xs">
                {(item.value as string[]).map((name) => (
                  <Anchor key={name} size="sm" href={productFieldFileUrl(productKey, item.custom_field_key, name)} target="_blank" rel="noreferrer">
                    {name}
                  </Anchor>
                ))}
              </Group>
            ) : (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {text(field, item.value)}
              </Text>
            )}
          </Group>
        )
      })}
    </Stack>
  )
}

/**
 * Custom metadata while editing: choose a field of the form field library, then a value typed
 * by the field (SPEC 3 Form field types). File fields upload at once through `POST files`;
 * a failed upload shows an alert (SPEC 8).
 */
export function MetadataEditor(props: {
  items: MetadataItem[]
  onChange: (items: MetadataItem[]) => void
  fields: FieldRow[]
  productKey: string
  showErrors: boolean
}) {
  const { t, i18n } = useLingui()
  const byKey = new Map(props.fields.map((f) => [f._key, f]))
  const problems = metadataProblems(props.items, byKey)
  const problemText = useProblemText()
  const used = new Set(props.items.map((i) => i.custom_field_key))
  const choices = props.fields
    .filter((f) => f.active && !used.has(f._key))
    .map((f) => ({ value: f._key, label: `${f.name} · ${i18n._(FIELD_TYPE_LABELS[f.type])}` }))

  const set = (key: string, value: unknown) => props.onChange(props.items.map((i) => (i.custom_field_key === key ? { ...i, value } : i)))
  const add = (key: string | null) => {
    const field = key ? byKey.get(key) : undefined
    if (!field) return
    props.onChange([...props.items, { custom_field_key: field._key, value: takesArray(field) ? [] : field.type === 'boolean' ? false : null }])
  }

  return (
    <Stack gap="sm">
      {props.items.map((item) => {
        const field = byKey.get(item.custom_field_key)
        const problem = props.showErrors ? problems.get(item.custom_field_key) : undefined
        return (
          <Paper key={item.custom_field_key} withBorder p="sm" radius="sm" data-testid="metadata-item">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Group gap={6}>
                  <Text size="sm" fw={600}>
                    {field?.name ?? '…'}
                    {field?.mandatory && (
                      <Text span c="red">
                        {' *'}
                      </Text>
                    )}
                  </Text>
                  {field && (
                    <Badge size="xs" variant="light" color="gray">
                      {i18n._(FIELD_TYPE_LABELS[field.type])}
                    </Badge>
                  )}
                  {field && !field.active && (
                    <Badge size="xs" variant="light" color="orange">
                      <Trans>archiviato</Trans>
                    </Badge>
                  )}
                </Group>
                {field?.help_text && (
                  <Text size="xs" c="dimmed">
                    {field.help_text}
                  </Text>
                )}
                {field && (
                  <ValueInput field={field} value={item.value} onChange={(v) => set(field._key, v)} productKey={props.productKey} error={problem ? problemText(field, problem) : undefined} />
                )}
              </Stack>
              <Tooltip label={t`Togli il campo`}>
                <CloseButton aria-label={t`Togli ${field?.name ?? ''}`} onClick={() => props.onChange(props.items.filter((i) => i !== item))} />
              </Tooltip>
            </Group>
          </Paper>
        )
      })}
      <Select
        aria-label={t`Aggiungi un campo personalizzato`}
        placeholder={choices.length ? t`+ Aggiungi un campo personalizzato` : t`Nessun altro campo disponibile`}
        data={choices}
        value={null}
        onChange={add}
        searchable
        disabled={choices.length === 0}
        maw={420}
        nothingFoundMessage={t`Nessun campo trovato`}
      />
    </Stack>
  )
}

function ValueInput(props: { field: FieldRow; value: unknown; onChange: (v: unknown) => void; productKey: string; error?: string }) {
  const { t } = useLingui()
  const { field, value, onChange, error } = props
  const label = t`Valore di ${field.name}`
  const list = Array.isArray(value) ? (value as unknown[]) : []
  const str = typeof value === 'string' ? value : ''
  const common = { 'aria-label': label, error, maw: 420 }
  switch (field.type) {
    case 'text':
      return field.multiple ? (
        <TagsInput {...common} value={list.map(String)} onChange={onChange} placeholder={t`Scrivi e premi Invio`} />
      ) : (
        <Textarea {...common} value={str} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={1} maxRows={6} />
      )
    case 'number': {
      // The draft keeps the typed text; `metadataValue` turns it into the number that is saved.
      if (field.multiple) {
        const problem = numberTextProblem(value)
        return (
          <TagsInput
            {...common}
            error={problem ? capitalised(issueText(problem.problem, problem.limit)) : error}
            value={list.map((v) => (typeof v === 'number' ? toNumberText(v) : String(v)))}
            onChange={onChange}
            // ',' is a decimal separator here, so it must not split values.
            splitChars={[';']}
            placeholder={t`Numeri, Invio dopo ciascuno`}
          />
        )
      }
      return <NumberTextInput {...common} value={typeof value === 'number' ? toNumberText(value) : str} onChange={onChange} />
    }
    case 'boolean':
      return (
        <Select
          {...common}
          data={[
            { value: 'true', label: t`Sì` },
            { value: 'false', label: t`No` },
          ]}
          value={value === true ? 'true' : value === false ? 'false' : null}
          onChange={(v) => onChange(v === null ? null : v === 'true')}
          clearable={!field.mandatory}
          w={160}
        />
      )
    case 'ternary':
      return (
        <Select
          {...common}
          data={[
            { value: 'true', label: t`Sì` },
            { value: 'false', label: t`No` },
            { value: 'na', label: t`N.A.` },
          ]}
          value={typeof value === 'string' ? value : null}
          onChange={(v) => onChange(v)}
          clearable={!field.mandatory}
          w={160}
        />
      )
    case 'choice':
      return field.multiple ? (
        <MultiSelect {...common} data={field.options} value={list.map(String)} onChange={onChange} clearable />
      ) : (
        <Select {...common} data={field.options} value={str || null} onChange={(v) => onChange(v)} clearable={!field.mandatory} />
      )
    case 'date':
      return field.multiple ? (
        <TagsInput {...common} value={list.map(String).map(dateText)} onChange={(vs) => onChange(vs.map(dateValue))} placeholder={t`AAAA/MM/GG, Invio dopo ciascuna`} />
      ) : (
        // SPEC 5: the kit's date input, typed or picked YYYY/MM/DD, stored 'YYYY-MM-DD'. Text that is
        // not a date stays in the field as typed; the value becomes a mark the same check refuses, so
        // the product does not save while it is there.
        <DateField
          {...common}
          value={isIsoDate(str) ? str : null}
          onChange={(v) => onChange(v)}
          onUnreadable={(unreadable) => unreadable && onChange(UNREADABLE_DATE)}
          w={200}
        />
      )
    case 'time':
      return field.multiple ? (
        <TagsInput {...common} value={list.map(String)} onChange={onChange} placeholder={t`HH:MM, Invio dopo ciascuna`} />
      ) : (
        <TextInput {...common} value={str} onChange={(e) => onChange(e.currentTarget.value.trim() || null)} placeholder={t`HH:MM`} w={200} />
      )
    case 'files':
      return <FilesValue field={field} names={list.map(String)} onChange={onChange} productKey={props.productKey} error={error} />
  }
}

/** A files field: the stored files (links), remove, upload (`POST files`; a failure is an alert, SPEC 8). */
function FilesValue(props: { field: FieldRow; names: string[]; onChange: (names: string[]) => void; productKey: string; error?: string }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const canAdd = props.field.multiple || props.names.length === 0

  async function upload(files: File[]) {
    if (files.length === 0) return
    const tooBig = files.find((f) => f.size > MAX_DOC_BYTES)
    if (tooBig) {
      window.alert(t`Caricamento non riuscito: ${tooBig.name} supera 25 MB`)
      return
    }
    setBusy(true)
    try {
      const res = await uploadFieldFiles(props.productKey, props.field._key, files)
      props.onChange([...props.names, ...res.filenames])
    } catch (e) {
      window.alert(t`Caricamento non riuscito: ${errorMessage(toApiError(e))}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap={6}>
      {props.names.length > 0 && (
        <Group gap="xs">
          {props.names.map((name) => (
            <Badge
              key={name}
              variant="light"
              color="gray"
              tt="none"
              size="lg"
              fw={500}
              rightSection={
                <ActionIcon size="xs" variant="transparent" color="gray" aria-label={t`Togli ${name}`} onClick={() => props.onChange(props.names.filter((n) => n !== name))}>
                  ×
                </ActionIcon>
              }
            >
              <Anchor href={productFieldFileUrl(props.productKey, props.field._key, name)} target="_blank" rel="noreferrer" size="sm">
                {name}
              </Anchor>
            </Badge>
          ))}
        </Group>
      )}
      {canAdd && (
        <FileButton onChange={(f) => void upload(f ? (Array.isArray(f) ? f : [f]) : [])} multiple={props.field.multiple} accept={DOC_ACCEPT}>
          {(p) => (
            <Button {...p} variant="default" size="compact-sm" loading={busy} w="fit-content">
              <Trans>Carica file</Trans>
            </Button>
          )}
        </FileButton>
      )}
      {props.error && (
        <Text size="xs" c="red">
          {props.error}
        </Text>
      )}
    </Stack>
  )
}
