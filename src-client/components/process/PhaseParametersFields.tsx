import { Trans, useLingui } from '@lingui/react/macro'
import { Input, Paper, SegmentedControl, SimpleGrid, Stack, Switch, Table, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { PHASE_LIMITS, type PhaseParameters, phaseParametersProblem, type ReleaseStyle } from '../../../src/domains/process/phase-parameters'
import type { NumberRules } from '../../../src/i18n/number-text'
import { asNumberText, NumberTextInput, numberOrText, readDraftNumber } from '../NumberTextInput'

export type CountKey = 'max_offline' | 'std_processing_time' | 'production_batch_qt' | 'release_batch_qt'
type BoolKey = { [K in keyof PhaseParameters]: PhaseParameters[K] extends boolean ? K : never }[keyof PhaseParameters]
/**
 * Parameters as a form holds them: a count is its number, or the text being typed when that
 * text is not a number's plain form yet ('', "12,", "abc"): see `numberOrText`.
 */
export type ParametersDraft = Omit<PhaseParameters, CountKey> & Record<CountKey, number | string>

const COUNT_KEYS: CountKey[] = ['max_offline', 'std_processing_time', 'production_batch_qt', 'release_batch_qt']
const countRules = (key: CountKey): NumberRules => ({ min: 0, max: PHASE_LIMITS[key], integer: true })
/** A count's value, or null while it is empty or refused (the field says why). */
const countOf = (d: ParametersDraft, key: CountKey) => {
  const read = readDraftNumber(d[key], countRules(key))
  return read.ok ? read.value : null
}

/** The parameters to send, or null while a number is missing or refused. */
export function draftParameters(d: ParametersDraft): PhaseParameters | null {
  const counts = COUNT_KEYS.map((k) => [k, countOf(d, k)] as const)
  if (counts.some(([, value]) => value === null)) return null
  return { ...d, ...Object.fromEntries(counts) } as PhaseParameters
}

/** The field errors of a draft, keyed by parameter (the same rules as the server). */
export function useParameterErrors(d: ParametersDraft): Partial<Record<CountKey, string>> {
  const { t } = useLingui()
  const errors: Partial<Record<CountKey, string>> = {}
  for (const k of COUNT_KEYS) if (asNumberText(d[k]).trim() === '') errors[k] = t`Inserisci un valore`
  if (!errors.release_batch_qt && phaseParametersProblem({ release_style: d.release_style, release_batch_qt: countOf(d, 'release_batch_qt') ?? 0 })) {
    errors.release_batch_qt = t`Con lo stile di rilascio "lotto di rilascio" la quantità deve essere maggiore di 0`
  }
  return errors
}

/** The rules alone (no messages), for deciding whether a phase can be saved. */
export const parametersValid = (d: ParametersDraft) =>
  draftParameters(d) !== null && !phaseParametersProblem({ release_style: d.release_style, release_batch_qt: countOf(d, 'release_batch_qt') ?? 0 })

function Block({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={5}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  )
}

/**
 * Every phase parameter of SPEC 3 with its unit: times in seconds, quantities in pieces
 * (production batch 0 = the whole job), release style and the release batch it needs.
 * Controlled; `disabled` outside edit mode.
 */
export function PhaseParametersFields({ value, onChange, disabled }: { value: ParametersDraft; onChange: (v: ParametersDraft) => void; disabled?: boolean }) {
  const { t } = useLingui()
  const errors = useParameterErrors(value)
  const set = <K extends keyof ParametersDraft>(key: K, v: ParametersDraft[K]) => onChange({ ...value, [key]: v })

  const toggle = (key: BoolKey, label: string, description: string) => (
    <Switch label={label} description={description} name={key} checked={value[key]} onChange={(e) => set(key, e.currentTarget.checked)} disabled={disabled} />
  )
  const count = (key: CountKey, label: string, unit: string, description: ReactNode, off = false) => (
    <NumberTextInput
      label={label}
      description={description}
      name={key}
      unit={unit}
      {...countRules(key)}
      value={asNumberText(value[key])}
      onChange={(text) => set(key, numberOrText(text))}
      error={disabled ? undefined : errors[key]}
      disabled={disabled || off}
    />
  )
  const styles: { value: ReleaseStyle; label: string }[] = [
    { value: 'continuous', label: t`Continuo` },
    { value: 'job', label: t`A fine lavoro` },
    { value: 'release_batch', label: t`Lotto di rilascio` },
  ]
  const styleHelp: Record<ReleaseStyle, string> = {
    continuous: t`Ogni pezzo finito passa subito alla fase successiva.`,
    job: t`I pezzi passano alla fase successiva quando il lavoro è finito.`,
    release_batch: t`I pezzi passano alla fase successiva a gruppi della quantità indicata.`,
  }

  return (
    <Stack gap="md" data-testid="phase-parameters">
      <Block title={<Trans>Tempi</Trans>}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {count('std_processing_time', t`Tempo standard di lavorazione`, t`s/pz`, t`Secondi per pezzo`)}
          {count('max_offline', t`Tempo massimo offline`, t`s`, t`Secondi senza connessione prima che la sessione di lavoro si chiuda`)}
        </SimpleGrid>
      </Block>
      <Block title={<Trans>Lotti e rilascio</Trans>}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {count('production_batch_qt', t`Quantità del lotto di produzione`, t`pz`, t`0 = l'intera quantità del lavoro`)}
          {toggle('auto_new_batch', t`Nuovo lotto automatico`, t`Al completamento di un lotto ne parte subito un altro`)}
        </SimpleGrid>
        <Input.Wrapper label={t`Stile di rilascio`} description={styleHelp[value.release_style]} inputWrapperOrder={['label', 'input', 'description']}>
          <SegmentedControl
            data={styles}
            value={value.release_style}
            onChange={(v) => set('release_style', v as ReleaseStyle)}
            fullWidth
            mt={4}
            mb={4}
            disabled={disabled}
            aria-label={t`Stile di rilascio`}
          />
        </Input.Wrapper>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {count(
            'release_batch_qt',
            t`Quantità del lotto di rilascio`,
            t`pz`,
            value.release_style === 'release_batch' ? t`Pezzi per ogni rilascio (maggiore di 0)` : t`Usata solo con lo stile "lotto di rilascio"`,
            value.release_style !== 'release_batch',
          )}
        </SimpleGrid>
      </Block>
      <Block title={<Trans>Lavoro dell'operatore</Trans>}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
          {toggle('unsupervised_work_allowed', t`Lavoro non presidiato`, t`La fase può avanzare senza un operatore presente`)}
          {toggle('parallel_job_allowed', t`Lavori in parallelo`, t`Un operatore può avere più lavori avviati insieme`)}
          {toggle('display_job_timer', t`Cronometro del lavoro`, t`Mostra all'operatore il tempo trascorso`)}
        </SimpleGrid>
      </Block>
      <Block title={<Trans>Controllo dei passi</Trans>}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {toggle('step_check', t`Conferma dei passi`, t`L'operatore conferma ogni passo completato`)}
          {toggle('step_check_force_order', t`Ordine obbligato`, t`I passi vanno confermati nell'ordine del processo`)}
        </SimpleGrid>
      </Block>
    </Stack>
  )
}

/** The parameters as read outside edit mode: each with its value and unit. */
export function PhaseParametersSummary({ value }: { value: ParametersDraft }) {
  const { t } = useLingui()
  const yes = (b: boolean) => (b ? t`Sì` : t`No`)
  const styles: Record<ReleaseStyle, string> = { continuous: t`Continuo`, job: t`A fine lavoro`, release_batch: t`Lotto di rilascio` }
  const productionBatch = Number(value.production_batch_qt)
  const rows: [string, string, string?][] = [
    [t`Tempo standard di lavorazione`, `${value.std_processing_time} ${t`s/pz`}`],
    [t`Tempo massimo offline`, `${value.max_offline} ${t`s`}`],
    [t`Quantità del lotto di produzione`, productionBatch === 0 ? t`Intera quantità del lavoro` : `${productionBatch} ${t`pz`}`],
    [t`Nuovo lotto automatico`, yes(value.auto_new_batch)],
    [
      t`Stile di rilascio`,
      value.release_style === 'release_batch' ? `${styles.release_batch}: ${value.release_batch_qt} ${t`pz`}` : styles[value.release_style],
    ],
    [t`Lavoro non presidiato`, yes(value.unsupervised_work_allowed)],
    [t`Lavori in parallelo`, yes(value.parallel_job_allowed)],
    [t`Cronometro del lavoro`, yes(value.display_job_timer)],
    [t`Conferma dei passi`, yes(value.step_check)],
    [t`Ordine obbligato`, yes(value.step_check_force_order)],
  ]
  return (
    <Paper withBorder radius="md" p="md" data-testid="phase-parameters">
      <Table verticalSpacing={6} withRowBorders>
        <Table.Tbody>
          {rows.map(([label, text]) => (
            <Table.Tr key={label}>
              <Table.Th w="50%" fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td fw={600}>{text}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  )
}
