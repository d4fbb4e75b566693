import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text, Tooltip } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { minimumQuantity } from '../../../src/domains/jobs/rules'
import { JOB_PAGE_SIZE_MAX, type JobRow, MAX_JOB_QUANTITY } from '../../../src/domains/jobs/schemas'
import type { NumberRules } from '../../../src/i18n/number-text'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { asNumberText, NumberTextInput, numberOrText, readDraftNumber } from '../NumberTextInput'
import { OperatorSelect } from './OperatorSelect'

/** `quantity` is a number, or the typed text while it is not one (NumberTextInput `numberOrText`). */
type Line = { id: string; job?: JobRow; quantity: number | string; operator: string | null }
const QUANTITY_RULES: NumberRules = { min: 0, max: MAX_JOB_QUANTITY, integer: true }
const qty = (l: Line) => (typeof l.quantity === 'number' ? l.quantity : Number.NaN)

let lineCounter = 0
const newLineId = () => `new-${++lineCounter}`

export type RebalanceTarget = {
  work_order_key: string
  work_order_code: string
  phase_key: string
  phase_name: string
  department_key: string | null
}

/**
 * SPEC 5 rebalancing of one phase of a work order: every job of the phase with its quantity
 * and operator, new jobs added below. The sum must stay equal to the phase total and new jobs
 * need an operator; a job keeps its done and active pieces. The server checks the same rules.
 */
export function RebalanceDialog({ target, onClose }: { target: RebalanceTarget; onClose: () => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const jobs = useQuery(
    trpc.jobs.list.queryOptions({ work_order_key: target.work_order_key, phase_key: target.phase_key, include_closed: true, limit: JOB_PAGE_SIZE_MAX }),
  )
  const [lines, setLines] = useState<Line[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (jobs.data && lines === null) setLines(jobs.data.rows.map((j) => ({ id: j._key, job: j, quantity: j.quantity, operator: j.operator_key })))
  }, [jobs.data, lines])

  const total = useMemo(() => (jobs.data?.rows ?? []).reduce((s, j) => s + j.quantity, 0), [jobs.data])
  const sum = (lines ?? []).reduce((s, l) => s + (Number.isFinite(qty(l)) ? qty(l) : 0), 0)
  const newWithoutOperator = (lines ?? []).some((l) => !l.job && qty(l) > 0 && !l.operator)
  const belowDone = (lines ?? []).some((l) => l.job && qty(l) < minimumQuantity(l.job))
  // Typed text that is not a whole number of pieces keeps the dialog from saving; the field says why.
  const refused = (lines ?? []).some((l) => !readDraftNumber(l.quantity, { ...QUANTITY_RULES, required: true }).ok)
  const mismatch = sum !== total
  const changed = (lines ?? []).some((l) => (!l.job ? qty(l) > 0 : l.quantity !== l.job.quantity || l.operator !== l.job.operator_key))

  const update = (id: string, patch: Partial<Line>) => setLines((ls) => (ls ?? []).map((l) => (l.id === id ? { ...l, ...patch } : l)))
  const addLine = () => setLines((ls) => [...(ls ?? []), { id: newLineId(), quantity: Math.max(0, total - sum), operator: null }])

  async function save() {
    if (!lines) return
    setBusy(true)
    setFailure(null)
    try {
      await trpcClient.jobs.rebalance.mutate({
        work_order_key: target.work_order_key,
        phase_key: target.phase_key,
        jobs: lines.map((l) => ({ ...(l.job ? { job_key: l.job._key } : {}), quantity: qty(l), operator_key: l.operator })),
      })
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
      notifySuccess(t`Job ribilanciati`)
      onClose()
    } catch (e) {
      setFailure(errorMessage(toApiError(e)))
      setBusy(false)
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <Text fw={600}>
          <Trans>
            Ribilancia {target.phase_name} · {target.work_order_code}
          </Trans>
        </Text>
      }
    >
      {!lines ? (
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      ) : (
        <Stack>
          <Table verticalSpacing="xs" aria-label={t`Distribuzione della fase`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>
                  <Trans>Operatore</Trans>
                </Table.Th>
                <Table.Th w={140}>
                  <Trans>Quantità</Trans>
                </Table.Th>
                <Table.Th w={40} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line, index) => {
                const job = line.job
                const closed = job?.status === 'closed'
                const minimum = job ? minimumQuantity(job) : 0
                return (
                  <Table.Tr key={line.id} data-testid="rebalance-line">
                    <Table.Td>
                      {job ? (
                        <Stack gap={2}>
                          <Text size="sm" fw={500}>
                            <Trans>Job {index + 1}</Trans>
                            {job.active && (
                              <Badge ml="xs" size="xs" color="green">
                                <Trans>In lavorazione</Trans>
                              </Badge>
                            )}
                            {closed && (
                              <Badge ml="xs" size="xs" color="dark">
                                <Trans>Chiuso</Trans>
                              </Badge>
                            )}
                          </Text>
                          <Text size="xs" c="dimmed">
                            <Trans>
                              {job.completed_qt} fatti, {job.active_qt} in lavorazione
                            </Trans>
                          </Text>
                        </Stack>
                      ) : (
                        <Badge variant="light" color="blue">
                          <Trans>Nuovo job</Trans>
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <OperatorSelect
                        size="xs"
                        aria-label={t`Operatore della riga ${index + 1}`}
                        value={line.operator}
                        onChange={(operator) => update(line.id, { operator })}
                        departmentKey={target.department_key}
                        currentName={job?.operator_name ?? job?.operator_username}
                        disabled={closed || job?.active}
                        clearable={Boolean(job)}
                        placeholder={job ? t`Non assegnato` : t`Scegli l'operatore`}
                        error={!job && qty(line) > 0 && !line.operator ? true : undefined}
                      />
                    </Table.Td>
                    <Table.Td>
                      <NumberTextInput
                        size="xs"
                        aria-label={t`Quantità della riga ${index + 1}`}
                        {...QUANTITY_RULES}
                        value={asNumberText(line.quantity)}
                        disabled={closed}
                        error={job && qty(line) < minimum ? t`Minimo ${minimum}` : undefined}
                        onChange={(text) => update(line.id, { quantity: numberOrText(text) })}
                      />
                    </Table.Td>
                    <Table.Td>
                      {!job && (
                        <Tooltip label={t`Togli la riga`}>
                          <ActionIcon variant="subtle" color="gray" aria-label={t`Togli la riga ${index + 1}`} onClick={() => setLines((ls) => (ls ?? []).filter((l) => l.id !== line.id))}>
                            ✕
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Button variant="light" size="xs" onClick={addLine}>
              <Trans>Aggiungi job</Trans>
            </Button>
            <Text size="sm" fw={600} c={mismatch ? 'red' : 'teal'} data-testid="rebalance-sum">
              <Trans>
                Totale {sum} / {total}
              </Trans>
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            <Trans>I pezzi già fatti o in lavorazione restano al loro job. I job senza più pezzi da fare vengono tolti (se mai iniziati) o chiusi.</Trans>
          </Text>
          {(mismatch || newWithoutOperator || belowDone) && (
            <Text size="sm" c="red" role="status">
              {mismatch ? <Trans>Le quantità non corrispondono al totale della fase</Trans> : newWithoutOperator ? <Trans>Assegna un operatore ai nuovi job</Trans> : <Trans>Un job non può scendere sotto i pezzi fatti o in lavorazione</Trans>}
            </Text>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Annulla</Trans>
            </Button>
            <Button onClick={save} loading={busy} disabled={!changed || refused || mismatch || newWithoutOperator || belowDone}>
              <Trans>Salva distribuzione</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
