import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Group, Modal, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { hasScope } from '../../../src/auth/scopes'
import { SERIAL_CODE_MAX, SERIAL_REASON_MAX } from '../../../src/domains/serials/schemas'
import { decimalSeparatorOf, numberToText } from '../../../src/i18n/number-text'
import { type Entry, entriesToData, FIELD_NAME_MAX, kindOf } from './serial-data'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'

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
  const save = async () => {
    setSaving(true)
    try {
      await trpcClient.serials.patch.mutate({ key: serialKey, patch: { code: next, reason } })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Seriale aggiornato`)
      modal.onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Modifica il codice del seriale`} centered>
      <Stack>
        <TextInput label={t`Nuovo codice`} value={next} onChange={(e) => setNext(e.currentTarget.value)} maxLength={SERIAL_CODE_MAX} data-autofocus />
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} loading={saving} disabled={!reason.trim() || next === code}>
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
 * SPEC 5: corrects the data a serial carries (values, a field added or removed) with a mandatory
 * reason; the server records the reason and the values before and after in SERIAL_UPDATED.
 */
export function EditSerialDataDialog({ serialKey, data, ...modal }: Props & { serialKey: string; data: Record<string, unknown> }) {
  const { t, i18n } = useLingui()
  const separator = decimalSeparatorOf(i18n.locale)
  const queryClient = useQueryClient()
  const [entries, setEntries] = useState<Entry[]>(() =>
    Object.entries(data).map(([name, value], id) => {
      const kind = kindOf(value)
      const text = kind === 'text' ? String(value) : kind === 'number' ? numberToText(value as number, separator) : kind === 'json' ? JSON.stringify(value) : ''
      return { id, name, kind, text, checked: value === true, isNew: false }
    }),
  )
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const update = (id: number, patch: Partial<Entry>) => setEntries((list) => list.map((e) => (e.id === id ? { ...e, ...patch } : e)))
  const result = entriesToData(entries)
  const names = entries.map((e) => e.name.trim()).filter(Boolean)
  const duplicate = names.find((n, i) => names.indexOf(n) !== i)
  const changed = result.ok && JSON.stringify(result.data) !== JSON.stringify(data)
  const save = async () => {
    if (!result.ok) return
    setSaving(true)
    try {
      await trpcClient.serials.patch.mutate({ key: serialKey, patch: { data: result.data, reason } })
      await queryClient.invalidateQueries({ queryKey: trpc.serials.pathKey() })
      notifySuccess(t`Seriale aggiornato`)
      modal.onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal {...modal} title={t`Correggi i dati del seriale`} centered size="lg">
      <Stack>
        {entries.length === 0 && (
          <Text size="sm" c="dimmed">
            <Trans>Il seriale non ha dati: aggiungi un campo.</Trans>
          </Text>
        )}
        {entries.map((e) => {
          const bad = !result.ok && result.name === e.name.trim()
          return (
            <Group key={e.id} gap="xs" align="flex-end" wrap="nowrap">
              {e.isNew ? (
                <TextInput
                  label={t`Campo`}
                  value={e.name}
                  onChange={(ev) => update(e.id, { name: ev.currentTarget.value })}
                  maxLength={FIELD_NAME_MAX}
                  w="40%"
                  error={duplicate !== undefined && e.name.trim() === duplicate ? t`Campo già presente` : undefined}
                />
              ) : null}
              {e.kind === 'boolean' ? (
                <Switch label={e.name} checked={e.checked} onChange={(ev) => update(e.id, { checked: ev.currentTarget.checked })} style={{ flex: 1 }} />
              ) : (
                <TextInput
                  label={e.isNew ? t`Valore` : e.name}
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
                aria-label={t`Togli il campo ${e.name}`}
                onClick={() => setEntries((list) => list.filter((x) => x.id !== e.id))}
              >
                ✕
              </ActionIcon>
            </Group>
          )
        })}
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          onClick={() => setEntries((list) => [...list, { id: Math.max(-1, ...list.map((x) => x.id)) + 1, name: '', kind: 'text', text: '', checked: false, isNew: true }])}
        >
          <Trans>Aggiungi un campo</Trans>
        </Button>
        <Textarea label={t`Motivo`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={SERIAL_REASON_MAX} autosize minRows={2} required />
        <Group justify="flex-end">
          <Button variant="default" onClick={modal.onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} loading={saving} disabled={!reason.trim() || !changed || duplicate !== undefined}>
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
