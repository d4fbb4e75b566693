import { Trans, useLingui } from '@lingui/react/macro'
import { Input, NumberInput, SegmentedControl, SimpleGrid, Stack, Switch } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import {
  PHASE_LIMITS,
  type PhaseParameters,
  phaseParametersProblem,
  type ReleaseStyle,
} from '../../../../../src/domains/process/phase-parameters'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { FormActions, Loading, Section, sameValues } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/default-phase')({
  component: DefaultPhaseTab,
})

function DefaultPhaseTab() {
  const { data } = useQuery(trpc.settings.defaultPhase.queryOptions())
  if (!data) return <Loading />
  return <PhaseForm key={JSON.stringify(data)} saved={data} />
}

type NumberKey = 'max_offline' | 'std_processing_time' | 'production_batch_qt' | 'release_batch_qt'
type BoolKey = { [K in keyof PhaseParameters]: PhaseParameters[K] extends boolean ? K : never }[keyof PhaseParameters]
type Draft = Omit<PhaseParameters, NumberKey> & Record<NumberKey, number | string>

function PhaseForm({ saved }: { saved: PhaseParameters }) {
  const { t } = useLingui()
  const [draft, setDraft] = useState<Draft>(saved)
  const [saving, setSaving] = useState(false)
  const dirty = !sameValues(draft, saved as Draft)
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }))

  const numbers = Object.fromEntries(
    (['max_offline', 'std_processing_time', 'production_batch_qt', 'release_batch_qt'] as const).map((k) => [k, draft[k] === '' ? null : Number(draft[k])]),
  ) as Record<NumberKey, number | null>
  const errors: Partial<Record<NumberKey, string>> = {}
  for (const [k, value] of Object.entries(numbers) as [NumberKey, number | null][]) {
    if (value === null) errors[k] = t`Inserisci un valore`
  }
  if (!errors.release_batch_qt && phaseParametersProblem({ release_style: draft.release_style, release_batch_qt: numbers.release_batch_qt ?? 0 })) {
    errors.release_batch_qt = t`Con lo stile di rilascio "lotto di rilascio" la quantità deve essere maggiore di 0`
  }
  const valid = Object.keys(errors).length === 0

  async function save(e: React.FormEvent) {
    e.preventDefault()
    if (!valid) return
    setSaving(true)
    try {
      const row = await trpcClient.settings.setDefaultPhase.mutate({ ...draft, ...(numbers as Record<NumberKey, number>) })
      queryClient.setQueryData(trpc.settings.defaultPhase.queryKey(), row)
      notifySuccess(t`Parametri predefiniti salvati`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  const toggle = (key: BoolKey, label: string, description: string) => (
    <Switch
      label={label}
      description={description}
      name={key}
      checked={draft[key]}
      onChange={(e) => set(key, e.currentTarget.checked)}
      size="md"
    />
  )
  const count = (key: NumberKey, label: string, unit: string, description: ReactNode, disabled = false) => (
    <NumberInput
      label={label}
      description={description}
      name={key}
      suffix={` ${unit}`}
      min={0}
      max={PHASE_LIMITS[key]}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="strict"
      thousandSeparator={false}
      value={draft[key]}
      onChange={(v) => set(key, v)}
      error={errors[key]}
      disabled={disabled}
    />
  )
  const releaseStyles: { value: ReleaseStyle; label: string }[] = [
    { value: 'continuous', label: t`Continuo` },
    { value: 'job', label: t`A fine lavoro` },
    { value: 'release_batch', label: t`Lotto di rilascio` },
  ]
  const releaseHelp: Record<ReleaseStyle, string> = {
    continuous: t`Ogni pezzo finito passa subito alla fase successiva.`,
    job: t`I pezzi passano alla fase successiva quando il lavoro è finito.`,
    release_batch: t`I pezzi passano alla fase successiva a gruppi della quantità indicata.`,
  }

  return (
    <form onSubmit={save}>
      <Stack maw={900} gap="lg">
        <Section
          title={<Trans>Tempi</Trans>}
          description={<Trans>Valori con cui parte ogni nuova fase; ogni prodotto può poi modificarli.</Trans>}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {count('std_processing_time', t`Tempo standard di lavorazione`, t`s/pz`, t`Secondi per pezzo`)}
            {count('max_offline', t`Tempo massimo offline`, t`s`, t`Secondi senza connessione prima che la sessione di lavoro si chiuda`)}
          </SimpleGrid>
        </Section>

        <Section title={<Trans>Lotti e rilascio</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {count('production_batch_qt', t`Quantità del lotto di produzione`, t`pz`, t`0 = l'intera quantità del lavoro`)}
            {toggle('auto_new_batch', t`Nuovo lotto automatico`, t`Al completamento di un lotto ne parte subito un altro`)}
          </SimpleGrid>
          <Input.Wrapper label={t`Stile di rilascio`} description={releaseHelp[draft.release_style]} inputWrapperOrder={['label', 'input', 'description']}>
            <SegmentedControl
              data={releaseStyles}
              value={draft.release_style}
              onChange={(v) => set('release_style', v as ReleaseStyle)}
              fullWidth
              mt={4}
              mb={4}
              aria-label={t`Stile di rilascio`}
            />
          </Input.Wrapper>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {count(
              'release_batch_qt',
              t`Quantità del lotto di rilascio`,
              t`pz`,
              draft.release_style === 'release_batch' ? t`Pezzi per ogni rilascio (maggiore di 0)` : t`Usata solo con lo stile "lotto di rilascio"`,
              draft.release_style !== 'release_batch',
            )}
          </SimpleGrid>
        </Section>

        <Section title={<Trans>Lavoro dell'operatore</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
            {toggle('unsupervised_work_allowed', t`Lavoro non presidiato`, t`La fase può avanzare senza un operatore presente`)}
            {toggle('parallel_job_allowed', t`Lavori in parallelo`, t`Un operatore può avere più lavori avviati insieme`)}
            {toggle('display_job_timer', t`Cronometro del lavoro`, t`Mostra all'operatore il tempo trascorso`)}
          </SimpleGrid>
        </Section>

        <Section title={<Trans>Controllo dei passi</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {toggle('step_check', t`Conferma dei passi`, t`L'operatore conferma ogni passo completato`)}
            {toggle('step_check_force_order', t`Ordine obbligato`, t`I passi vanno confermati nell'ordine del processo`)}
          </SimpleGrid>
        </Section>

        <FormActions dirty={dirty} saving={saving} onCancel={() => setDraft(saved)} sticky />
      </Stack>
    </form>
  )
}
