import { Trans, useLingui } from '@lingui/react/macro'
import { NumberInput, SimpleGrid, Stack, Switch } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { OTHER_KEYS, type SettingsPatch, type SettingsRow } from '../../../../../src/domains/settings/schemas'
import { auth } from '../../../../lib/auth-store'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { trpcClient } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { FormActions, Section, sameValues, storeSettings, useSettings } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/other')({
  component: OtherTab,
})

type OtherKey = (typeof OTHER_KEYS)[number]
type NumberKey = 'idle_lock_minutes' | 'autocomplete_min_chars_serials' | 'autocomplete_min_chars_tags'
type BoolKey = Exclude<OtherKey, NumberKey>
type Draft = Pick<SettingsRow, BoolKey> & Record<NumberKey, number | string>

const pick = (s: SettingsRow): Draft => Object.fromEntries(OTHER_KEYS.map((k) => [k, s[k]])) as Draft
const LIMITS: Record<NumberKey, [number, number]> = {
  idle_lock_minutes: [1, 24 * 60],
  autocomplete_min_chars_serials: [1, 20],
  autocomplete_min_chars_tags: [1, 20],
}

function OtherTab() {
  const { data } = useSettings()
  if (!data) return <Loading />
  const initial = pick(data)
  return <OtherForm key={JSON.stringify(initial)} initial={initial} />
}

function OtherForm({ initial }: { initial: Draft }) {
  const { t } = useLingui()
  const [draft, setDraft] = useState<Draft>(initial)
  const [saving, setSaving] = useState(false)
  const dirty = !sameValues(draft, initial)
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const errors: Partial<Record<NumberKey, string>> = {}
  for (const [k, [min, max]] of Object.entries(LIMITS) as [NumberKey, [number, number]][]) {
    const value = draft[k]
    if (value === '' || !Number.isInteger(Number(value)) || Number(value) < min || Number(value) > max) {
      errors[k] = t`Un numero intero da ${min} a ${max}`
    }
  }

  async function save(e: React.FormEvent) {
    e.preventDefault()
    if (Object.keys(errors).length) return
    setSaving(true)
    try {
      const changed = Object.fromEntries(
        OTHER_KEYS.filter((k) => draft[k] !== initial[k]).map((k) => [k, typeof initial[k] === 'number' ? Number(draft[k]) : draft[k]]),
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
    <NumberInput
      label={label}
      description={description}
      name={key}
      suffix={` ${unit}`}
      min={LIMITS[key][0]}
      max={LIMITS[key][1]}
      allowDecimal={false}
      allowNegative={false}
      value={draft[key]}
      onChange={(v) => set(key, v)}
      error={errors[key]}
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
