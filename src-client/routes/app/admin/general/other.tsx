import { Trans, useLingui } from '@lingui/react/macro'
import { Select, SimpleGrid, Stack, Switch } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { SIGNATURE_MEANINGS } from '../../../../../src/domains/process/steps'
import { OTHER_KEYS, SIGNATURE_SETTING_KEYS, type SettingsPatch, type SettingsRow, SETTINGS_LIMITS } from '../../../../../src/domains/settings/schemas'
import { type NumberRules, readNumberText } from '../../../../../src/i18n/number-text'
import { auth } from '../../../../lib/auth-store'
import { SIGNATURE_MEANING_LABELS } from '../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { trpcClient } from '../../../../lib/trpc'
import { NumberTextInput, toNumberText } from '../../../../components/NumberTextInput'
import { Loading } from '../../../../components/QueryState'
import { FormActions, Section, sameValues, storeSettings, useSettings } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/other')({
  component: OtherTab,
})

type OtherKey = (typeof OTHER_KEYS)[number]
type NumberKey = 'idle_lock_minutes' | 'autocomplete_min_chars_serials' | 'autocomplete_min_chars_tags' | 'pin_min_length'
type BoolKey = Exclude<OtherKey, NumberKey>
type SignatureKey = (typeof SIGNATURE_SETTING_KEYS)[number]
/** Numbers as typed (NumberTextInput). */
type Draft = Pick<SettingsRow, BoolKey | SignatureKey> & Record<NumberKey, string>
const DRAFT_KEYS = [...OTHER_KEYS, ...SIGNATURE_SETTING_KEYS]
const NUMBER_KEYS: NumberKey[] = ['idle_lock_minutes', 'autocomplete_min_chars_serials', 'autocomplete_min_chars_tags', 'pin_min_length']
const isNumberKey = (k: OtherKey): k is NumberKey => (NUMBER_KEYS as OtherKey[]).includes(k)

const pick = (s: SettingsRow): Draft => Object.fromEntries(DRAFT_KEYS.map((k) => [k, isNumberKey(k as OtherKey) ? toNumberText(s[k] as number) : s[k]])) as Draft
const rulesOf = (key: NumberKey): NumberRules => ({ min: SETTINGS_LIMITS[key][0], max: SETTINGS_LIMITS[key][1], integer: true })
const readNumber = (draft: Draft, key: NumberKey) => readNumberText(draft[key], { ...rulesOf(key), required: true })

function OtherTab() {
  const { data } = useSettings()
  if (!data) return <Loading />
  const initial = pick(data)
  return <OtherForm key={JSON.stringify(initial)} initial={initial} />
}

function OtherForm({ initial }: { initial: Draft }) {
  const { t, i18n } = useLingui()
  const [draft, setDraft] = useState<Draft>(initial)
  const [saving, setSaving] = useState(false)
  const dirty = !sameValues(draft, initial)
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const errors: Partial<Record<NumberKey, string>> = {}
  for (const k of NUMBER_KEYS) {
    const [min, max] = SETTINGS_LIMITS[k]
    // Shown when the field is empty; refused text shows the field's own reason.
    if (!readNumber(draft, k).ok) errors[k] = t`Un numero intero da ${min} a ${max}`
  }

  async function save(e: React.FormEvent) {
    e.preventDefault()
    if (Object.keys(errors).length) return
    setSaving(true)
    try {
      const changed = Object.fromEntries(
        DRAFT_KEYS.filter((k) => draft[k] !== initial[k]).map((k) => {
          const read = isNumberKey(k as OtherKey) ? readNumber(draft, k as NumberKey) : null
          return [k, read?.ok ? read.value : draft[k]]
        }),
      ) as SettingsPatch
      const row = await trpcClient.settings.update.mutate(changed)
      storeSettings(row)
      // The idle lock timer of this very session follows the new timeout.
      if ('idle_lock_minutes' in changed) await auth.refreshSession().catch(() => {})
      notifySuccess(t`Impostazioni salvate`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  const toggle = (key: BoolKey, label: string, description: string) => (
    <Switch label={label} description={description} name={key} checked={draft[key]} onChange={(e) => set(key, e.currentTarget.checked)} size="md" />
  )
  const whole = (key: NumberKey, label: string, unit: string, description: string) => (
    <NumberTextInput
      label={label}
      description={description}
      name={key}
      unit={unit}
      {...rulesOf(key)}
      value={draft[key]}
      onChange={(text) => set(key, text)}
      error={errors[key]}
    />
  )

  const NONE = 'none'
  const meanings = [{ value: NONE, label: t`Non richiesta` }, ...SIGNATURE_MEANINGS.map((m) => ({ value: m, label: i18n._(SIGNATURE_MEANING_LABELS[m]) }))]
  const signature = (key: SignatureKey, label: string) => (
    <Select
      label={label}
      name={key}
      data={meanings}
      value={draft[key] ?? NONE}
      onChange={(value) => set(key, value && value !== NONE ? (value as NonNullable<Draft[SignatureKey]>) : null)}
      allowDeselect={false}
      data-testid={`setting-${key}`}
    />
  )

  return (
    <form onSubmit={save}>
      <Stack maw={900} gap="lg">
        <Section title={<Trans>Produzione</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
            {toggle('allow_unassigned_jobs', t`Lavori non assegnati`, t`Gli operatori possono avviare lavori non assegnati a nessuno`)}
            {toggle(
              'independent_queue_reordering',
              t`Riordino indipendente delle code`,
              t`Ogni operatore può avere un ordine proprio dei lavori in coda`,
            )}
          </SimpleGrid>
        </Section>
        <Section title={<Trans>Tracciabilità e magazzino</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
            {toggle('serial_code_edit', t`Modifica dei codici seriali`, t`I codici seriali già creati possono essere modificati`)}
            {toggle('serial_delete', t`Eliminazione dei seriali`, t`I seriali possono essere eliminati`)}
            {toggle('inventory_management', t`Gestione dell'inventario`, t`Attiva giacenze e movimenti di magazzino`)}
          </SimpleGrid>
        </Section>
        <Section title={<Trans>Firme elettroniche</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
            {signature('signature_revision_release', t`Rilascio di una revisione`)}
            {signature('signature_critical_issue_close', t`Chiusura di una segnalazione critica`)}
            {signature('signature_serial_correction', t`Correzione dei dati di un seriale`)}
            {signature('signature_job_correction', t`Correzioni di un lavoro (azzera, annulla, avanzamento, tempi)`)}
            {signature('signature_movement_revert', t`Storno di un movimento`)}
            {toggle(
              'pin_signing',
              t`Firma con PIN personale`,
              t`Si può firmare con un PIN al posto della password; il secondo firmatario si identifica con il badge`,
            )}
            {whole('pin_min_length', t`Lunghezza minima del PIN`, t`cifre`, t`Cifre minime di un nuovo PIN`)}
          </SimpleGrid>
        </Section>
        <Section title={<Trans>Sessione e ricerca</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {whole('idle_lock_minutes', t`Blocco per inattività`, t`min`, t`Minuti di inattività prima del blocco`)}
            {whole('autocomplete_min_chars_serials', t`Ricerca seriali`, t`caratteri`, t`Caratteri minimi per i suggerimenti`)}
            {whole('autocomplete_min_chars_tags', t`Ricerca tag`, t`caratteri`, t`Caratteri minimi per i suggerimenti`)}
          </SimpleGrid>
        </Section>
        <FormActions dirty={dirty} saving={saving} onCancel={() => setDraft(initial)} sticky />
      </Stack>
    </form>
  )
}
