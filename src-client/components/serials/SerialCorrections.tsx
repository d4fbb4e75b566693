import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Group, Loader, Modal, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { hasScope } from '../../../src/auth/scopes'
import type { FieldDefinition, FormValue } from '../../../src/domains/execution/schemas'
import { checkMetadataValue, isEmptyValue } from '../../../src/domains/products/metadata'
import { SERIAL_CODE_MAX, SERIAL_REASON_MAX } from '../../../src/domains/serials/schemas'
import { decimalSeparatorOf, numberToText } from '../../../src/i18n/number-text'
import { type Entry, entriesToData, kindOf } from './serial-data'
import { toApiError } from '../../lib/api-error'
import { numbersFromText } from '../../lib/number-field-values'
import { notifyError, notifySuccess } from '../../lib/notify'
import { FormFieldInput } from '../operator/FormFieldInput'
import { trpc, trpcClient } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'
import { ActionSignatureFields, useActionSignature } from '../signatures/ActionSignature'
import { CameraTextInput } from '../scan/CameraTextInput'

/** Traceability staff correct serials (the server checks scope and settings again). */
export function useCanCorrectSerials() {
  return hasScope(useSession()?.scope ?? '', 'traceability')
}

type Props = { opened: boolean; onClose: () => void }

/** SPEC 5: a serial change needs a reason; the code only where the serial_code_edit setting allows it. */
export function EditSerialCodeDialog({ serialKey, code, ...modal }: Props & { serialKey: string; code: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [next, setNext] = useState(code)
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const signature = useActionSignature('serial_correction')
  const save = async () => {
    setSaving(true)
    try {
      await trpcClient.serials.patch.mutate({ key: serialKey, patch: { code: next, reason, signature: signature.input() } })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Seriale aggiornato`)
      modal.onClose()
    } catch (e) {
      if (!signature.refused(e)) notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Modifica il codice del seriale`} centered>
      <Stack>
        <CameraTextInput label={t`Nuovo codice`} value={next} onChange={(e) => setNext(e.currentTarget.value)} maxLength={SERIAL_CODE_MAX} data-autofocus />
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} />
        <ActionSignatureFields state={signature} what={t`Correzione del codice del seriale ${code}`} />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} loading={saving} disabled={!reason.trim() || next === code || !signature.ready}>
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** Takes a component out of the serial (only where the serial_delete setting allows it), with a reason. */
export function UnlinkSerialDialog({ linkKey, childCode, parentCode, ...modal }: Props & { linkKey: string; childCode: string; parentCode: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const remove = async () => {
    setSaving(true)
    try {
      await trpcClient.serials.unlink.mutate({ link_key: linkKey, reason })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Collegamento rimosso`)
      modal.onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Togliere ${childCode} da ${parentCode}?`} centered>
      <Stack>
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color="red" onClick={remove} loading={saving} disabled={!reason.trim()}>
            <Trans>Rimuovi collegamento</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/**
 * SPEC 5: corrects the data a serial carries with a mandatory reason; the server records the
 * reason and the values before and after in SERIAL_UPDATED. The configured serial fields
 * (Impostazioni › Generale › Campi dei seriali) come first, each with its own input by type and the
 * mandatory ones marked; keys the serial already carries that are no serial field (written before
 * the list changed, or by a script) stay editable and removable. No free keys: the server refuses them.
 */
export function EditSerialDataDialog({
  serialKey,
  code,
  data,
  batchKey,
  ...modal
}: Props & { serialKey: string; code: string; data: Record<string, unknown>; batchKey: string | null }) {
  const { t, i18n } = useLingui()
  const separator = decimalSeparatorOf(i18n.locale)
  const queryClient = useQueryClient()
  // Read again each time the dialog opens: a field an admin has just added shows without a reload.
  const serialFields = useQuery({ ...trpc.serialFields.list.queryOptions(), refetchOnMount: 'always' })
  const allFields = serialFields.data ?? []
  const fields: (FieldDefinition & { field_active: boolean })[] = allFields.filter((f) => f.field_active)
  const configured = new Set(fields.map((f) => f._key))
  const names = new Map(allFields.map((f) => [f._key, f.name]))
  const [values, setValues] = useState<Record<string, FormValue>>(() => ({ ...(data as Record<string, FormValue>) }))
  const [entries, setEntries] = useState<Entry[]>(() =>
    Object.entries(data).map(([name, value], id) => {
      const kind = kindOf(value)
      const text = kind === 'text' ? String(value) : kind === 'number' ? numberToText(value as number, separator) : kind === 'json' ? JSON.stringify(value) : ''
      return { id, name, kind, text, checked: value === true, isNew: false }
    }),
  )
  const extras = entries.filter((e) => !configured.has(e.name))
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  // The server's refusal of one serial field (a mandatory one left empty), shown under it until it changes.
  const [refused, setRefused] = useState<{ key: string; message: string } | null>(null)
  const signature = useActionSignature('serial_correction')
  const update = (id: number, patch: Partial<Entry>) => setEntries((list) => list.map((e) => (e.id === id ? { ...e, ...patch } : e)))
  const extraData = entriesToData(extras)
  const problems = new Map(
    fields.flatMap((f) => {
      const value = f.type === 'number' ? numbersFromText(values[f._key] ?? null) : (values[f._key] ?? null)
      return checkMetadataValue({ ...f, mandatory: false }, value).ok ? [] : [[f._key, value] as const]
    }),
  )
  const configuredData = Object.fromEntries(
    fields.flatMap((f) => {
      const value = f.type === 'number' ? numbersFromText(values[f._key] ?? null) : (values[f._key] ?? null)
      return isEmptyValue(value) ? [] : [[f._key, value]]
    }),
  )
  const result = extraData.ok ? { ok: true as const, data: { ...extraData.data, ...configuredData } } : extraData
  const sorted = (d: Record<string, unknown>) => JSON.stringify(Object.entries(d).sort(([a], [b]) => (a < b ? -1 : 1)))
  const changed = result.ok && sorted(result.data) !== sorted(data)
  const save = async () => {
    if (!result.ok || problems.size) return
    setSaving(true)
    try {
      await trpcClient.serials.patch.mutate({ key: serialKey, patch: { data: result.data, reason, signature: signature.input() } })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Seriale aggiornato`)
      modal.onClose()
    } catch (e) {
      const err = toApiError(e)
      const key = err.code === 'SERIAL_DATA_INVALID' && typeof err.extra.field_key === 'string' ? err.extra.field_key : null
      if (key && configured.has(key)) setRefused({ key, message: err.extra.kind === 'required' ? t`Obbligatorio: non può restare vuoto` : t`Valore non valido` })
      if (!signature.refused(e)) notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Correggi i dati del seriale`} centered size="lg">
      <Stack>
        {serialFields.isPending && <Loader size="sm" />}
        {!serialFields.isPending && fields.length === 0 && extras.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="serial-data-no-fields">
            <Trans>Nessun campo seriale configurato: l'amministratore li definisce in Impostazioni › Generale › Campi dei seriali.</Trans>
          </Text>
        )}
        {fields.map((f) => (
          <FormFieldInput
            key={f._key}
            field={f}
            value={values[f._key] ?? null}
            onChange={(v) => {
              setValues((all) => ({ ...all, [f._key]: v }))
              if (refused?.key === f._key) setRefused(null)
            }}
            // Files of a serial live with its batch: without one there is nowhere to upload them.
            disabled={saving || (f.type === 'files' && !batchKey)}
            error={problems.has(f._key) ? (f.type === 'number' ? t`Non è un numero` : t`Valore non valido`) : refused?.key === f._key ? refused.message : undefined}
            batchKey={batchKey ?? ''}
          />
        ))}
        {extras.length > 0 && (
          <Text size="sm" c="dimmed" mt="xs">
            <Trans>Altri dati del seriale (non sono campi seriale):</Trans>
          </Text>
        )}
        {extras.map((e) => {
          const bad = !extraData.ok && extraData.name === e.name.trim()
          const label = names.get(e.name) ?? e.name
          return (
            <Group key={e.id} gap="xs" align="flex-end" wrap="nowrap">
              {e.kind === 'boolean' ? (
                <Switch label={label} checked={e.checked} onChange={(ev) => update(e.id, { checked: ev.currentTarget.checked })} style={{ flex: 1 }} />
              ) : (
                <TextInput
                  label={label}
                  value={e.text}
                  onChange={(ev) => update(e.id, { text: ev.currentTarget.value })}
                  inputMode={e.kind === 'number' ? 'decimal' : undefined}
                  error={bad ? (e.kind === 'number' ? t`Non è un numero` : t`Valore non valido`) : undefined}
                  style={{ flex: 1 }}
                />
              )}
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={bad ? 22 : 0}
                aria-label={t`Togli il campo ${label}`}
                onClick={() => setEntries((list) => list.filter((x) => x.id !== e.id))}
              >
                ✕
              </ActionIcon>
            </Group>
          )
        })}
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} required />
        <ActionSignatureFields state={signature} what={t`Correzione dei dati del seriale ${code}`} />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} loading={saving} disabled={!reason.trim() || !changed || problems.size > 0 || !signature.ready}>
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
