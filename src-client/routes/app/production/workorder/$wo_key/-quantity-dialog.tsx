import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Alert, Badge, Button, Group, Modal, Paper, ScrollArea, Select, Stack, Table, Text, Tooltip } from '@mantine/core'
import { useState } from 'react'
import { minimumJobQuantity, distributedQt, type DistributionPhase, distributionProblems } from '../../../../../../src/domains/work-orders/rules'
import { MAX_QUANTITY, type WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import type { NumberRules } from '../../../../../../src/i18n/number-text'
import { asNumberText, NumberTextInput, numberOrText, readDraftNumber } from '../../../../../components/NumberTextInput'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { trpcClient } from '../../../../../lib/trpc'
import { invalidateWorkOrders, useAllowUnassigned } from '../-workorder-ui'
import { useOperatorOptions } from '../../../../../components/jobs/OperatorSelect'

type JobRow = {
  job_key: string
  operator_name: string | null
  quantity: number
  completed_qt: number
  active_qt: number
  status: string
  /** A number, or the typed text while it is not one (NumberTextInput `numberOrText`). */
  value: number | string
}
type NewJob = { id: number; operator_key: string | null; value: number | string }
type PhaseState = { phase_key: string; name: string; position: number; jobs: JobRow[]; new_jobs: NewJob[]; touched: boolean }

const num = (x: number | string) => (typeof x === 'number' && Number.isFinite(x) ? x : 0)
const QUANTITY_RULES: NumberRules = { min: 1, max: MAX_QUANTITY, integer: true }
const JOB_RULES: NumberRules = { min: 0, max: MAX_QUANTITY, integer: true }
const NEW_JOB_RULES: NumberRules = { min: 1, max: MAX_QUANTITY, integer: true }
const reads = (x: number | string, rules: NumberRules) => {
  const read = readDraftNumber(x, rules)
  return read.ok && read.value !== null
}

function initialPhases(wo: WorkOrderDetail): PhaseState[] {
  return wo.phases.map((p) => ({
    phase_key: p._key,
    name: p.name,
    position: p.position,
    touched: false,
    new_jobs: [],
    jobs: p.jobs.map((j) => ({
      job_key: j._key,
      operator_name: j.operator_name,
      quantity: j.quantity,
      completed_qt: j.completed_qt,
      active_qt: j.active_qt,
      status: j.status,
      value: j.quantity,
    })),
  }))
}

/**
 * A phase nobody edited follows the new quantity: the difference goes to its last open job
 * (growing), or comes off its jobs from the last one, never below their done and active pieces.
 */
function follow(phase: PhaseState, quantity: number): PhaseState {
  if (phase.touched || phase.jobs.length === 0) return phase
  const jobs = phase.jobs.map((j) => ({ ...j }))
  let diff = quantity - jobs.reduce((s, j) => s + num(j.value), 0) - phase.new_jobs.reduce((s, j) => s + num(j.value), 0)
  if (diff > 0) {
    const target = [...jobs].reverse().find((j) => j.status !== 'closed') ?? jobs[jobs.length - 1]!
    target.value = num(target.value) + diff
  } else {
    for (const j of [...jobs].reverse()) {
      if (diff === 0) break
      const take = Math.min(-diff, num(j.value) - minimumJobQuantity(j))
      if (take > 0) {
        j.value = num(j.value) - take
        diff += take
      }
    }
  }
  return { ...phase, jobs }
}

/**
 * SPEC 5 quantity change: the new planned quantity and its distribution among the jobs of every
 * phase (existing jobs with new quantities, new jobs with an operator). Saving stays disabled
 * until every phase adds up to the quantity; the server checks the same rules again.
 */
export function QuantityDialog({ wo, onClose }: { wo: WorkOrderDetail; onClose: () => void }) {
  const { t } = useLingui()
  const operatorOptions = useOperatorOptions()
  const allowUnassigned = useAllowUnassigned() ?? true
  const [quantity, setQuantity] = useState<number | string>(wo.planned_qt)
  const [phases, setPhases] = useState<PhaseState[]>(() => initialPhases(wo))
  const [serverError, setServerError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [nextId, setNextId] = useState(1)

  const q = num(quantity)
  const quantityValid = reads(quantity, QUANTITY_RULES)
  const distribution: DistributionPhase[] = phases.map((p) => ({
    phase_key: p.phase_key,
    name: p.name,
    position: p.position,
    jobs: p.jobs.map((j) => ({ job_key: j.job_key, quantity: j.quantity, completed_qt: j.completed_qt, active_qt: j.active_qt, new_quantity: num(j.value) })),
    new_jobs: p.new_jobs.map((n) => ({ operator_key: n.operator_key, quantity: num(n.value) })),
  }))
  const problems = quantityValid ? distributionProblems(q, distribution, allowUnassigned) : []
  // Typed text that is not a number (or breaks a field's limits) keeps the dialog from saving; the field says why.
  const newJobsValid = phases.every((p) => p.new_jobs.every((n) => reads(n.value, NEW_JOB_RULES)) && p.jobs.every((j) => reads(j.value, JOB_RULES)))
  const changed = q !== wo.planned_qt || phases.some((p) => p.new_jobs.length > 0 || p.jobs.some((j) => num(j.value) !== j.quantity))
  const canSave = quantityValid && problems.length === 0 && newJobsValid && changed && !saving

  function changeQuantity(text: string) {
    const next = numberOrText(text)
    setQuantity(next)
    setServerError(null)
    if (typeof next === 'number' && next > 0) setPhases((prev) => prev.map((p) => follow(p, next)))
  }
  const editPhase = (phaseKey: string, edit: (p: PhaseState) => PhaseState) => {
    setServerError(null)
    setPhases((prev) => prev.map((p) => (p.phase_key === phaseKey ? { ...edit(p), touched: true } : p)))
  }

  async function save() {
    setSaving(true)
    setServerError(null)
    try {
      await trpcClient.workOrders.updateQuantities.mutate({
        key: wo._key,
        change: {
          quantity: q,
          phases: phases.map((p) => ({
            phase_key: p.phase_key,
            jobs: p.jobs.map((j) => ({ job_key: j.job_key, quantity: num(j.value) })),
            new_jobs: p.new_jobs.map((n) => ({ operator_key: n.operator_key, quantity: num(n.value) })),
          })),
        },
      })
      await invalidateWorkOrders()
      notifySuccess(t`Quantità aggiornata`)
      onClose()
    } catch (e) {
      const error = toApiError(e)
      const where = error.extra.phase_name ? t`Fase ${String(error.extra.position)} (${String(error.extra.phase_name)})` : null
      const numbers =
        error.code === 'WORKLOAD_NOT_DISTRIBUTED' ? t`${String(error.extra.distributed)} di ${String(error.extra.quantity)} pezzi distribuiti` : null
      setServerError([errorMessage(error), where, numbers].filter(Boolean).join(' — '))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Modal opened onClose={onClose} title={t`Cambia quantità di ${wo.code}`} size="xl" centered scrollAreaComponent={ScrollArea.Autosize}>
      <Stack gap="md">
        <Group align="flex-end" gap="md">
          <NumberTextInput
            label={t`Nuova quantità pianificata`}
            data-autofocus
            {...QUANTITY_RULES}
            value={asNumberText(quantity)}
            onChange={changeQuantity}
            error={!quantityValid ? t`Inserisci una quantità maggiore di 0` : null}
            w={220}
          />
          <Text size="sm" c="dimmed" pb={quantityValid ? 8 : 28}>
            <Trans>Attuale: {wo.planned_qt}</Trans>
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          <Trans>
            Tutto il carico di lavoro deve essere distribuito: in ogni fase la somma dei job deve essere uguale alla quantità. Un job non scende sotto i
            pezzi già fatti o in lavorazione.
          </Trans>
        </Text>

        {phases.map((p) => {
          const sum = distributedQt(distribution.find((d) => d.phase_key === p.phase_key)!)
          const ok = quantityValid && sum === q
          const phaseProblems = problems.filter((x) => x.phase_key === p.phase_key)
          return (
            <Paper key={p.phase_key} withBorder radius="md" p="sm" data-testid={`phase-${p.position}`}>
              <Group justify="space-between" mb="xs">
                <Text fw={600}>
                  <Trans>
                    Fase {p.position}: {p.name}
                  </Trans>
                </Text>
                <Badge color={ok ? 'green' : 'red'} variant="light" size="lg" data-testid="phase-sum">
                  {sum} / {q}
                </Badge>
              </Group>
              <Table verticalSpacing={4} withRowBorders={false} layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w="45%">
                      <Trans>Operatore</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Fatti / in lavorazione</Trans>
                    </Table.Th>
                    <Table.Th w={160}>
                      <Trans>Quantità</Trans>
                    </Table.Th>
                    <Table.Th w={40} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {p.jobs.map((j) => {
                    const minimum = minimumJobQuantity(j)
                    const below = phaseProblems.some((x) => x.code === 'JOB_BELOW_DONE' && x.job_key === j.job_key)
                    return (
                      <Table.Tr key={j.job_key}>
                        <Table.Td>{j.operator_name ?? <Text c="dimmed" size="sm"><Trans>Non assegnato</Trans></Text>}</Table.Td>
                        <Table.Td>
                          <Text size="sm">
                            {j.completed_qt} / {j.active_qt}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <NumberTextInput
                            aria-label={t`Quantità del job di ${j.operator_name ?? t`non assegnato`}`}
                            size="xs"
                            {...JOB_RULES}
                            value={asNumberText(j.value)}
                            onChange={(x) =>
                              editPhase(p.phase_key, (ph) => ({
                                ...ph,
                                jobs: ph.jobs.map((y) => (y.job_key === j.job_key ? { ...y, value: numberOrText(x) } : y)),
                              }))
                            }
                            error={below ? t`Minimo ${minimum}` : null}
                          />
                        </Table.Td>
                        <Table.Td />
                      </Table.Tr>
                    )
                  })}
                  {p.new_jobs.map((n) => {
                    const needsOperator = !allowUnassigned && !n.operator_key
                    return (
                      <Table.Tr key={`new-${n.id}`}>
                        <Table.Td>
                          <Select
                            aria-label={t`Operatore del nuovo job`}
                            size="xs"
                            placeholder={allowUnassigned ? t`Non assegnato` : t`Scegli un operatore`}
                            clearable
                            searchable
                            data={operatorOptions}
                            value={n.operator_key}
                            onChange={(x) =>
                              editPhase(p.phase_key, (ph) => ({ ...ph, new_jobs: ph.new_jobs.map((y) => (y.id === n.id ? { ...y, operator_key: x } : y)) }))
                            }
                            error={needsOperator ? t`Operatore obbligatorio` : null}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Badge size="sm" variant="light">
                            <Trans>Nuovo</Trans>
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <NumberTextInput
                            aria-label={t`Quantità del nuovo job`}
                            size="xs"
                            {...NEW_JOB_RULES}
                            value={asNumberText(n.value)}
                            onChange={(x) =>
                              editPhase(p.phase_key, (ph) => ({
                                ...ph,
                                new_jobs: ph.new_jobs.map((y) => (y.id === n.id ? { ...y, value: numberOrText(x) } : y)),
                              }))
                            }
                            error={num(n.value) <= 0 ? t`Maggiore di 0` : null}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Tooltip label={t`Togli`}>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t`Togli il nuovo job`}
                              onClick={() => editPhase(p.phase_key, (ph) => ({ ...ph, new_jobs: ph.new_jobs.filter((y) => y.id !== n.id) }))}
                            >
                              ✕
                            </ActionIcon>
                          </Tooltip>
                        </Table.Td>
                      </Table.Tr>
                    )
                  })}
                </Table.Tbody>
              </Table>
              <Group justify="space-between" mt="xs">
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => {
                    const rest = Math.max(0, q - sum)
                    editPhase(p.phase_key, (ph) => ({ ...ph, new_jobs: [...ph.new_jobs, { id: nextId, operator_key: null, value: rest > 0 ? rest : '' }] }))
                    setNextId((n) => n + 1)
                  }}
                >
                  + <Trans>Nuovo job</Trans>
                </Button>
                {quantityValid && sum !== q && (
                  <Text size="sm" c="red" data-testid="phase-problem">
                    {sum < q ? <Trans>Mancano {q - sum} pezzi da distribuire</Trans> : <Trans>{sum - q} pezzi in più del dovuto</Trans>}
                  </Text>
                )}
              </Group>
            </Paper>
          )
        })}

        {serverError && (
          <Alert color="red" title={t`Impossibile salvare`} data-testid="quantity-server-error">
            {serverError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={save} disabled={!canSave} loading={saving}>
            <Trans>Salva quantità</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
