import { Trans, useLingui } from '@lingui/react/macro'
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Chip,
  FileButton,
  Group,
  Input,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  type TextInputProps,
} from '@mantine/core'
import { lazy, Suspense, useState } from 'react'
import { FORM_TEXT_MAX, FORM_VALUES_MAX, type FieldDefinition, type FormValue } from '../../../src/domains/execution/schemas'
import { batchFieldFileUrl, DOC_ACCEPT, MAX_DOC_BYTES } from '../../../src/domains/products/files'
import { isTime } from '../../../src/domains/products/metadata'
import { dateTextToIso, isoToDateText, parseDateText } from '../../../src/i18n/date-text'
import { toApiError } from '../../lib/api-error'
import { capitalised, issueText } from '../../lib/input-issue-messages'
import { numberTextProblem } from '../../lib/number-field-values'
import { notifyError } from '../../lib/notify'
import { rest } from '../../lib/rest'
import { MultiSelect, Select, TagsInput } from '../choice-inputs'
import { NumberTextInput, toNumberText } from '../NumberTextInput'

/**
 * The date picker (@mantine/dates, dayjs) loads only when a step has a date field: most steps
 * have none. If it cannot load (the tablet went offline first) the date is typed in a plain field.
 */
const DateField = lazy(() =>
  import('../DateField').then(
    (m) => ({ default: m.DateField }),
    () => ({ default: TypedDateField as unknown as DateFieldType }),
  ),
)
type DateFieldType = typeof import('../DateField').DateField

type Props = {
  field: FieldDefinition
  value: FormValue
  onChange: (value: FormValue) => void
  disabled: boolean
  error?: string
  batchKey: string
  /** Told whether a date field holds text that is not a date (its value stays the last date read). */
  onUnreadable?: (unreadable: boolean) => void
}

/** Choices this short show as chips (one tap each); longer lists use a select. */
const CHIPS_MAX = 6

/**
 * One field of a form step, sized for a touch screen and a barcode scanner (which types and
 * presses Enter: no field submits anything on Enter). Values follow FormValue (execution
 * schemas): text, number (typed text while edited), boolean, ternary 'true'|'false'|'na', choice option(s),
 * date 'YYYY-MM-DD', time 'HH:MM' (typed text while edited), files (stored names); `multiple` fields take a list.
 */
export function FormFieldInput({ field, value, onChange, disabled, error, batchKey, onUnreadable }: Props) {
  const { t } = useLingui()
  const list = Array.isArray(value) ? value.map(String) : []
  const str = typeof value === 'string' ? value : ''
  const testId = `field-${field._key}`
  const wrapper = {
    label: (
      <Text span fw={600} size="lg">
        {field.name}
      </Text>
    ),
    description: field.help_text || undefined,
    withAsterisk: field.mandatory,
    error,
    size: 'lg' as const,
  }
  const common = { ...wrapper, disabled, 'data-testid': testId, 'aria-label': field.name }

  switch (field.type) {
    case 'text':
      return field.multiple ? (
        <TagsInput {...common} value={list} onChange={onChange} placeholder={t`Scrivi o scansiona, poi Invio`} maxLength={FORM_TEXT_MAX} maxTags={FORM_VALUES_MAX} />
      ) : (
        <TextInput {...common} value={str} onChange={(e) => onChange(e.currentTarget.value)} autoComplete="off" maxLength={FORM_TEXT_MAX} />
      )
    case 'number': {
      // The draft keeps the typed text (lib/number-field-values.ts); saved values are numbers.
      if (field.multiple) {
        const problem = numberTextProblem(value)
        return (
          <TagsInput
            {...common}
            error={problem ? capitalised(issueText(problem.problem, problem.limit)) : error}
            value={Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? toNumberText(v) : String(v))) : []}
            onChange={onChange}
            // ',' is a decimal separator here, so it must not split values.
            splitChars={[';']}
            maxTags={FORM_VALUES_MAX}
            placeholder={t`Numeri, Invio dopo ciascuno`}
          />
        )
      }
      return <NumberTextInput {...common} value={typeof value === 'number' ? toNumberText(value) : str} onChange={onChange} maw={320} />
    }
    case 'boolean':
      // What the switch shows is the answer: off means No (sent as false, never "not filled").
      return (
        <Input.Wrapper {...wrapper}>
          <Switch
            mt={6}
            size="xl"
            checked={value === true}
            onChange={(e) => onChange(e.currentTarget.checked)}
            disabled={disabled}
            data-testid={testId}
            aria-label={field.name}
            onLabel={t`SÌ`}
            offLabel={t`NO`}
          />
        </Input.Wrapper>
      )
    case 'ternary':
      return (
        <Input.Wrapper {...wrapper}>
          <div>
            <SegmentedControl
              mt={6}
              size="lg"
              color="teal.8"
              autoContrast
              value={str}
              onChange={(v) => onChange(v)}
              disabled={disabled}
              data-testid={testId}
              aria-label={field.name}
              data={[
                { value: 'true', label: t`Sì` },
                { value: 'false', label: t`No` },
                { value: 'na', label: t`N.A.` },
              ]}
              styles={{ label: { minWidth: 80, minHeight: 40, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
            />
          </div>
        </Input.Wrapper>
      )
    case 'choice':
      if (field.options.length <= CHIPS_MAX) {
        return (
          <Input.Wrapper {...wrapper}>
            <Group gap="xs" mt={6} data-testid={testId}>
              {field.multiple ? (
                <Chip.Group multiple value={list} onChange={(v) => onChange(v)}>
                  {field.options.map((o) => (
                    <Chip key={o} value={o} size="lg" disabled={disabled}>
                      {o}
                    </Chip>
                  ))}
                </Chip.Group>
              ) : (
                <Chip.Group value={str || null} onChange={(v) => onChange(v || null)}>
                  {field.options.map((o) => (
                    <Chip key={o} value={o} size="lg" disabled={disabled}>
                      {o}
                    </Chip>
                  ))}
                </Chip.Group>
              )}
            </Group>
          </Input.Wrapper>
        )
      }
      return field.multiple ? (
        <MultiSelect {...common} data={field.options} value={list} onChange={onChange} clearable searchable />
      ) : (
        <Select {...common} data={field.options} value={str || null} onChange={(v) => onChange(v)} clearable={!field.mandatory} searchable maw={420} />
      )
    case 'date':
      // SPEC 5: read and typed YYYY/MM/DD whatever the browser's language; stored 'YYYY-MM-DD'.
      return field.multiple ? (
        <TagsInput
          {...common}
          value={list.map(isoToDateText)}
          onChange={(texts) => onChange(texts.map(dateTextToIso))}
          placeholder={t`AAAA/MM/GG, Invio dopo ciascuna`}
        />
      ) : (
        // Until the picker has loaded the value shows in a disabled field: nothing typed can be lost.
        <Suspense fallback={<TextInput {...wrapper} value={str ? isoToDateText(str) : ''} disabled readOnly maw={260} />}>
          <DateField {...common} value={str || null} onChange={(v) => onChange(v)} onUnreadable={onUnreadable} maw={260} />
        </Suspense>
      )
    case 'time':
      if (field.multiple) {
        return <TagsInput {...common} value={list} onChange={onChange} placeholder={t`HH:MM, Invio dopo ciascuna`} />
      }
      return <TimeTextInput {...common} value={str} onChange={(text) => onChange(text || null)} />
    case 'files':
      return (
        <Input.Wrapper {...wrapper}>
          <FilesValue field={field} names={list} onChange={onChange} disabled={disabled} batchKey={batchKey} testId={testId} />
        </Input.Wrapper>
      )
  }
}

/**
 * A time typed as HH:MM on a 24-hour clock, whatever the browser's language (a native time field
 * shows a 12-hour clock in English). The text stays as typed: text that is not such a time is
 * marked once the field is left, and the form refuses to save it (isTime).
 */
function TimeTextInput({ value, onChange, error, ...rest }: Omit<TextInputProps, 'value' | 'onChange'> & { value: string; onChange: (text: string) => void }) {
  const { t } = useLingui()
  const [focused, setFocused] = useState(false)
  const unreadable = !focused && value.trim() !== '' && !isTime(value.trim())
  return (
    <TextInput
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      placeholder={t`HH:MM`}
      autoComplete="off"
      error={unreadable ? t`Ora non valida (HH:MM, 24 ore)` : error}
      maw={260}
    />
  )
}

type TypedDateFieldProps = Pick<TextInputProps, 'label' | 'description' | 'withAsterisk' | 'size' | 'error' | 'disabled' | 'maw' | 'aria-label'> & {
  value: string | null
  onChange: (value: string | null) => void
  onUnreadable?: (unreadable: boolean) => void
  'data-testid'?: string
}

/**
 * A date typed YYYY/MM/DD (SPEC 5): a readable one is kept as 'YYYY-MM-DD', other text as typed,
 * marked once the field is left and reported like the picker does (the step then refuses to save).
 */
function TypedDateField({ value, onChange, onUnreadable, error, 'data-testid': testId, ...props }: TypedDateFieldProps) {
  const { t } = useLingui()
  const [focused, setFocused] = useState(false)
  const unreadable = !focused && !!value && parseDateText(value) === null
  return (
    <TextInput
      {...props}
      error={unreadable ? t`Data non valida (AAAA/MM/GG)` : error}
      data-testid={testId}
      value={value ? isoToDateText(value) : ''}
      onChange={(e) => {
        const text = e.currentTarget.value
        onUnreadable?.(text.trim() !== '' && parseDateText(text) === null)
        onChange(text ? dateTextToIso(text) : null)
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      placeholder={t`AAAA/MM/GG`}
      autoComplete="off"
    />
  )
}

/**
 * Files of a form step: uploaded at once (`POST files`, bucket 'batch', object_key = batch,
 * subfolder = field); the field keeps the stored names, saved with the step.
 */
function FilesValue(props: { field: FieldDefinition; names: string[]; onChange: (names: string[]) => void; disabled: boolean; batchKey: string; testId: string }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const canAdd = !props.disabled && (props.field.multiple || props.names.length === 0)

  async function upload(files: File[]) {
    if (files.length === 0) return
    const tooBig = files.find((f) => f.size > MAX_DOC_BYTES)
    if (tooBig) {
      notifyError(new Error(t`${tooBig.name} supera 25 MB`))
      return
    }
    setBusy(true)
    try {
      const form = new FormData()
      form.append('bucket', 'batch')
      form.append('object_key', props.batchKey)
      form.append('subfolder', props.field._key)
      for (const f of files) form.append('contents', f)
      const res = await rest<{ filenames: string[] }>('POST', '/files', form)
      props.onChange([...props.names, ...res.filenames])
    } catch (e) {
      notifyError(toApiError(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap={6} mt={6} data-testid={props.testId}>
      {props.names.length > 0 && (
        <Group gap="xs">
          {props.names.map((name) => (
            <Badge
              key={name}
              variant="light"
              color="gray"
              tt="none"
              size="xl"
              fw={500}
              rightSection={
                props.disabled ? null : (
                  <ActionIcon size="md" variant="transparent" color="gray" aria-label={t`Togli ${name}`} onClick={() => props.onChange(props.names.filter((n) => n !== name))}>
                    ×
                  </ActionIcon>
                )
              }
            >
              <Anchor href={batchFieldFileUrl(props.batchKey, props.field._key, name)} target="_blank" rel="noreferrer">
                {name}
              </Anchor>
            </Badge>
          ))}
        </Group>
      )}
      {canAdd && (
        <FileButton onChange={(f) => void upload(f ? (Array.isArray(f) ? f : [f]) : [])} multiple={props.field.multiple} accept={DOC_ACCEPT}>
          {(p) => (
            <Button {...p} variant="default" size="lg" loading={busy} w="fit-content">
              <Trans>Carica file o foto</Trans>
            </Button>
          )}
        </FileButton>
      )}
      {props.disabled && props.names.length === 0 && <Text c="dimmed">—</Text>}
    </Stack>
  )
}
