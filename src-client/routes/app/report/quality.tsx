import { Trans, useLingui } from '@lingui/react/macro'
import { Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { QualityGroup, QualityReport } from '../../../../src/domains/reports/schemas'
import { formatDate } from '../../../../src/i18n/format'
import { bucketLabel, count, hours } from '../../../components/reports/format'
import { ReportChart } from '../../../components/reports/ReportChart'
import { ReportBody } from '../../../components/reports/ReportFrame'
import { ChartBlock, ReportShell } from '../../../components/reports/ReportShell'
import { rangeOf, reportGroup, type ReportSearch, reportInput, validateReportSearch } from '../../../components/reports/report-search'
import { type Column, Figures, SimpleTable } from '../../../components/reports/SimpleTable'
import { trpc } from '../../../lib/trpc'

export const Route = createFileRoute('/app/report/quality')({
  validateSearch: validateReportSearch,
  component: QualityReportPage,
})

function QualityReportPage() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const setSearch = (patch: Partial<ReportSearch>) => navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const period = rangeOf(search).period
  const groups: { value: QualityGroup; label: string }[] = [
    { value: 'type', label: t`Tipo` },
    { value: 'product', label: t`Prodotto` },
    { value: 'phase', label: t`Fase` },
  ]
  const { group, groupName } = reportGroup(groups, search.group)
  const report = useQuery({ ...trpc.reports.quality.queryOptions({ ...reportInput(search), group_by: group }), placeholderData: keepPreviousData })
  const none = t`(nessuno)`
  const h = (ms: number | null) => (ms === null ? '—' : hours(ms, i18n.locale))
  type Row = QualityReport['rows'][number]
  const columns: Column<Row>[] = [
    { id: 'label', header: groupName, cell: (r) => r.label || none },
    { id: 'opened', header: <Trans>Aperte</Trans>, cell: (r) => count(r.opened, i18n.locale), numeric: true },
    { id: 'closed', header: <Trans>Chiuse</Trans>, cell: (r) => count(r.closed, i18n.locale), numeric: true },
    { id: 'escalated', header: <Trans>Escalation</Trans>, cell: (r) => count(r.escalated, i18n.locale), numeric: true },
    { id: 'critical', header: <Trans>Critiche aperte</Trans>, cell: (r) => count(r.open_critical, i18n.locale), numeric: true },
    { id: 'p50', header: <Trans>Ore alla chiusura (mediana)</Trans>, cell: (r) => h(r.close_median_ms), numeric: true },
    { id: 'p90', header: <Trans>Ore alla chiusura (p90)</Trans>, cell: (r) => h(r.close_p90_ms), numeric: true },
  ]
  type Critical = QualityReport['open_critical'][number]
  const criticalColumns: Column<Critical>[] = [
    { id: 'code', header: <Trans>Codice</Trans>, cell: (i) => i.code },
    { id: 'title', header: <Trans>Titolo</Trans>, cell: (i) => i.title },
    { id: 'type', header: <Trans>Tipo</Trans>, cell: (i) => i.type_name },
    { id: 'wo', header: <Trans>Ordine di lavoro</Trans>, cell: (i) => i.work_order_code ?? '—' },
    { id: 'product', header: <Trans>Prodotto</Trans>, cell: (i) => i.product_code ?? '—' },
    { id: 'opened', header: <Trans>Aperta il</Trans>, cell: (i) => formatDate(new Date(i.opened_at)) },
  ]

  return (
    <ReportShell
      title={<Trans>Qualità</Trans>}
      description={<Trans>Segnalazioni aperte, chiuse ed escalation per periodo, per tipo, prodotto o fase; critiche aperte e tempi di chiusura.</Trans>}
      note={<Trans>Tempo alla chiusura: dall'ultima apertura alla chiusura, per le segnalazioni chiuse nel periodo (mediana e 90° percentile).</Trans>}
      search={search}
      setSearch={setSearch}
      groups={groups}
      group={group}
      csvName="qualita"
      tables={() =>
        report.data
          ? [
              {
                title: t`Segnalazioni per ${groupName}`,
                header: [groupName, t`Aperte`, t`Chiuse`, t`Escalation`, t`Critiche aperte`, t`Ore alla chiusura (mediana)`, t`Ore alla chiusura (p90)`],
                rows: report.data.rows.map((r) => [
                  r.label,
                  r.opened,
                  r.closed,
                  r.escalated,
                  r.open_critical,
                  r.close_median_ms === null ? null : +(r.close_median_ms / 3_600_000).toFixed(2),
                  r.close_p90_ms === null ? null : +(r.close_p90_ms / 3_600_000).toFixed(2),
                ]),
              },
              {
                title: t`Segnalazioni critiche aperte`,
                header: [t`Codice`, t`Titolo`, t`Tipo`, t`Ordine di lavoro`, t`Prodotto`, t`Aperta il`],
                rows: report.data.open_critical.map((i) => [i.code, i.title, i.type_name, i.work_order_code, i.product_code, formatDate(new Date(i.opened_at))]),
              },
            ]
          : null
      }
    >
      <ReportBody report={report}>
        {(data) => (
          <>
            <Figures
              items={[
                { label: <Trans>Aperte</Trans>, value: count(data.totals.opened, i18n.locale), testId: 'fig-opened' },
                { label: <Trans>Chiuse</Trans>, value: count(data.totals.closed, i18n.locale) },
                { label: <Trans>Escalation</Trans>, value: count(data.totals.escalated, i18n.locale) },
                { label: <Trans>Critiche aperte</Trans>, value: count(data.totals.open_critical, i18n.locale) },
                { label: <Trans>Ore alla chiusura (mediana)</Trans>, value: h(data.totals.close_median_ms) },
                { label: <Trans>Ore alla chiusura (p90)</Trans>, value: h(data.totals.close_p90_ms) },
              ]}
            />
            <ChartBlock title={<Trans>Segnalazioni per periodo</Trans>}>
              <ReportChart
                testId="chart-buckets"
                data={data.buckets.map((b) => ({ ...b, label: bucketLabel(b.bucket, period) }))}
                dataKey="label"
                series={[
                  { name: 'opened', label: t`Aperte`, color: 'orange.6' },
                  { name: 'closed', label: t`Chiuse`, color: 'teal.6' },
                  { name: 'escalated', label: t`Escalation`, color: 'red.6' },
                ]}
              />
            </ChartBlock>
            <ChartBlock title={<Trans>Segnalazioni per {groupName}</Trans>}>
              <ReportChart
                testId="chart-groups"
                data={data.rows.slice(0, 30).map((r) => ({ label: r.label || none, opened: r.opened, closed: r.closed, open_critical: r.open_critical }))}
                dataKey="label"
                series={[
                  { name: 'opened', label: t`Aperte`, color: 'orange.6' },
                  { name: 'closed', label: t`Chiuse`, color: 'teal.6' },
                  { name: 'open_critical', label: t`Critiche aperte`, color: 'red.6' },
                ]}
              />
            </ChartBlock>
            <SimpleTable testId="table-groups" rows={data.rows} columns={columns} empty={<Trans>Nessuna segnalazione nel periodo.</Trans>} />
            <Text fw={600}>
              <Trans>Segnalazioni critiche aperte</Trans>
            </Text>
            <SimpleTable testId="table-critical" rows={data.open_critical} columns={criticalColumns} empty={<Trans>Nessuna segnalazione critica aperta.</Trans>} />
          </>
        )}
      </ReportBody>
    </ReportShell>
  )
}
