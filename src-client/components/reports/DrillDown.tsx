import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, ScrollArea, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { ReportJobsInput } from '../../../src/domains/reports/schemas'
import { trpc } from '../../lib/trpc'
import { LoadError, Loading } from '../QueryState'
import { count, hours } from './format'

export type Drill = { title: ReactNode; input: ReportJobsInput; filter?: () => void }

/** The jobs behind a bar (or a table row): work order, phase, operator, pieces and hours in the range. */
export function DrillDown({ drill, onClose }: { drill: Drill | null; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const jobs = useQuery({ ...trpc.reports.jobs.queryOptions(drill?.input ?? { from: '2000-01-01', to: '2000-01-01' }), enabled: !!drill })
  const status: Record<string, string> = { queued: t`In coda`, started: t`Avviato`, paused: t`In pausa`, closed: t`Chiuso` }
  return (
    <Modal opened={!!drill} onClose={onClose} title={drill?.title} size="xl" data-testid="report-drill">
      {jobs.isError ? (
        <LoadError error={jobs.error} />
      ) : !jobs.data ? (
        <Loading />
      ) : (
        ((data) => (
          <>
            {data.jobs.length === 0 ? (
              <Text c="dimmed">
                <Trans>Nessun job in questo periodo.</Trans>
              </Text>
            ) : (
              <ScrollArea>
                <Table striped withTableBorder data-testid="report-drill-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>
                        <Trans>Ordine di lavoro</Trans>
                      </Table.Th>
                      <Table.Th>
                        <Trans>Prodotto</Trans>
                      </Table.Th>
                      <Table.Th>
                        <Trans>Fase</Trans>
                      </Table.Th>
                      <Table.Th>
                        <Trans>Operatore</Trans>
                      </Table.Th>
                      <Table.Th>
                        <Trans>Stato</Trans>
                      </Table.Th>
                      <Table.Th ta="right">
                        <Trans>Pezzi</Trans>
                      </Table.Th>
                      <Table.Th ta="right">
                        <Trans>Scarti</Trans>
                      </Table.Th>
                      <Table.Th ta="right">
                        <Trans>Ore</Trans>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.jobs.map((j) => (
                      <Table.Tr key={j.job_key}>
                        <Table.Td>{j.work_order_code}</Table.Td>
                        <Table.Td>{j.product_code}</Table.Td>
                        <Table.Td>{j.phase_name}</Table.Td>
                        <Table.Td>{j.operator_name ?? '—'}</Table.Td>
                        <Table.Td>{status[j.status] ?? j.status}</Table.Td>
                        <Table.Td ta="right">{count(j.completed_in_range, i18n.locale)}</Table.Td>
                        <Table.Td ta="right">{count(j.scrapped_in_range, i18n.locale)}</Table.Td>
                        <Table.Td ta="right">{hours(j.worked_ms, i18n.locale)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
            {data.truncated && (
              <Text size="sm" c="dimmed" mt="xs">
                <Trans>Mostrati i primi 500 job.</Trans>
              </Text>
            )}
            {drill?.filter && (
              <Group justify="flex-end" mt="md">
                <Button
                  variant="light"
                  onClick={() => {
                    drill.filter?.()
                    onClose()
                  }}
                >
                  <Trans>Filtra il rapporto</Trans>
                </Button>
              </Group>
            )}
          </>
        ))(jobs.data)
      )}
    </Modal>
  )
}
