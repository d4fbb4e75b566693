import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { ProductionGroup, ProductionReport } from '../../../../src/domains/reports/schemas'
import { type Drill, DrillDown } from '../../../components/reports/DrillDown'
import { bucketLabel, count, hours } from '../../../components/reports/format'
import { ReportChart } from '../../../components/reports/ReportChart'
import { ReportBody, useReportDrill } from '../../../components/reports/ReportFrame'
import { ChartBlock, ReportShell } from '../../../components/reports/ReportShell'
import { type FilterKey, reportGroup, type ReportSearch, reportInput, validateReportSearch } from '../../../components/reports/report-search'
import { type Column, Figures, SimpleTable } from '../../../components/reports/SimpleTable'
import { trpc } from '../../../lib/trpc'

export const Route = createFileRoute('/app/report/production')({
  validateSearch: validateReportSearch,
  component: ProductionReportPage,
})

/** Which filter a group's key sets (drill-down). */
const GROUP_FILTER: Record<ProductionGroup, FilterKey> = {
  product: 'product',
  work_order: 'work_order',
  phase: 'phase',
  department: 'department',
  line: 'line',
  operator: 'operator',
}
const FILTER_INPUT: Record<FilterKey, string> = {
  product: 'product_key',
  work_order: 'work_order_key',
  phase: 'phase_key',
  department: 'department_key',
  line: 'line',
  operator: 'operator_key',
}

function ProductionReportPage() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const setSearch = (patch: Partial<ReportSearch>) => navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const { drill, setDrill, period, periodDrill } = useReportDrill(search)
  const groups: { value: ProductionGroup; label: string }[] = [
    { value: 'product', label: t`Prodotto` },
    { value: 'work_order', label: t`Ordine di lavoro` },
    { value: 'phase', label: t`Fase` },
    { value: 'department', label: t`Reparto` },
    { value: 'line', label: t`Linea` },
    { value: 'operator', label: t`Operatore` },
  ]
  const { group, groupName } = reportGroup(groups, search.group)
  const report = useQuery({ ...trpc.reports.production.queryOptions({ ...reportInput(search), group_by: group }), placeholderData: keepPreviousData })
  const none = t`(nessuno)`

  const rowDrill = (r: ProductionReport['rows'][number]): Drill => {
    const f = GROUP_FILTER[group]
    const usable = r.key !== null && (f !== 'line' || r.key !== '')
    return {
      title: `${groupName}: ${r.label || none}`,
      input: { ...reportInput(search), ...(usable ? { [FILTER_INPUT[f]]: r.key } : {}) },
      filter: usable ? () => setSearch({ [f]: r.key ?? undefined, label: f === 'line' ? undefined : r.label }) : undefined,
    }
  }
  const columns: Column<ProductionReport['rows'][number]>[] = [
    { id: 'label', header: groupName, cell: (r) => r.label || none },
    { id: 'completed', header: <Trans>Pezzi completati</Trans>, cell: (r) => count(r.completed, i18n.locale), numeric: true },
    { id: 'scrapped', header: <Trans>Scarti</Trans>, cell: (r) => count(r.scrapped, i18n.locale), numeric: true },
    { id: 'good', header: <Trans>Buoni</Trans>, cell: (r) => count(r.good, i18n.locale), numeric: true },
    { id: 'jobs', header: <Trans>Job</Trans>, cell: (r) => count(r.jobs, i18n.locale), numeric: true },
    { id: 'work_orders', header: <Trans>Ordini</Trans>, cell: (r) => count(r.work_orders, i18n.locale), numeric: true },
  ]
  const lateColumns: Column<ProductionReport['late'][number]>[] = [
    { id: 'code', header: <Trans>Ordine di lavoro</Trans>, cell: (r) => r.code },
    { id: 'product', header: <Trans>Prodotto</Trans>, cell: (r) => r.product_code },
    { id: 'line', header: <Trans>Linea</Trans>, cell: (r) => r.line || '—' },
    { id: 'due', header: <Trans>Scadenza</Trans>, cell: (r) => r.due_by ?? '—' },
    { id: 'qty', header: <Trans>Completati / pianificati</Trans>, cell: (r) => `${count(r.completed_qt, i18n.locale)} / ${count(r.planned_qt, i18n.locale)}`, numeric: true },
    { id: 'work', header: <Trans>Lavoro residuo (ore std)</Trans>, cell: (r) => hours(r.remaining_work_ms, i18n.locale), numeric: true },
    {
      id: 'state',
      header: <Trans>Stato</Trans>,
      cell: (r) => (r.state === 'late' ? <Badge color="red">{t`In ritardo`}</Badge> : <Badge color="orange">{t`A rischio`}</Badge>),
    },
  ]

  return (
    <ReportShell
      title={<Trans>Produzione</Trans>}
      description={<Trans>Pezzi completati per periodo e per gruppo, pianificato contro completato, ordini in ritardo e a rischio.</Trans>}
      note={
        <Trans>
          Pezzi completati: lotti completati nel periodo (tutte le fasi). Pianificati: quantità degli ordini con scadenza nel periodo. A rischio: il lavoro residuo
          al tempo standard supera il tempo che manca alla fine del giorno di scadenza.
        </Trans>
      }
      search={search}
      setSearch={setSearch}
      groups={groups}
      group={group}
      csvName="produzione"
      tables={() =>
        report.data
          ? [
              {
                title: t`Produzione per ${groupName}`,
                header: [groupName, t`Pezzi completati`, t`Scarti`, t`Buoni`, t`Job`, t`Ordini`],
                rows: report.data.rows.map((r) => [r.label, r.completed, r.scrapped, r.good, r.jobs, r.work_orders]),
              },
              {
                title: t`Ordini in ritardo e a rischio`,
                header: [t`Ordine di lavoro`, t`Prodotto`, t`Linea`, t`Scadenza`, t`Completati`, t`Pianificati`, t`Lavoro residuo (ore std)`, t`Stato`],
                rows: report.data.late.map((r) => [
                  r.code,
                  r.product_code,
                  r.line,
                  r.due_by,
                  r.completed_qt,
                  r.planned_qt,
                  +(r.remaining_work_ms / 3_600_000).toFixed(2),
                  r.state === 'late' ? t`In ritardo` : t`A rischio`,
                ]),
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
                { label: <Trans>Pezzi completati</Trans>, value: count(data.totals.completed, i18n.locale), testId: 'fig-completed' },
                { label: <Trans>Scarti</Trans>, value: count(data.totals.scrapped, i18n.locale) },
                { label: <Trans>Pianificati</Trans>, value: count(data.totals.planned, i18n.locale) },
                { label: <Trans>Ordini in ritardo</Trans>, value: count(data.totals.work_orders_late, i18n.locale) },
                { label: <Trans>Ordini a rischio</Trans>, value: count(data.totals.work_orders_at_risk, i18n.locale) },
              ]}
            />
            <ChartBlock title={<Trans>Pezzi per periodo</Trans>} hint={<Trans>Tocca una barra per vedere i job.</Trans>}>
              <ReportChart
                testId="chart-buckets"
                data={data.buckets.map((b) => ({ ...b, label: bucketLabel(b.bucket, period) }))}
                dataKey="label"
                series={[
                  { name: 'completed', label: t`Completati`, color: 'teal.6' },
                  { name: 'final_completed', label: t`Completati (ultima fase)`, color: 'blue.6' },
                  { name: 'planned', label: t`Pianificati`, color: 'gray.5' },
                ]}
                onBar={(i) => {
                  const b = data.buckets[i]
                  if (b) setDrill(periodDrill(b.bucket))
                }}
              />
            </ChartBlock>
            <ChartBlock title={<Trans>Pezzi per {groupName}</Trans>} hint={<Trans>Tocca una barra o una riga per vedere i job.</Trans>}>
              <ReportChart
                testId="chart-groups"
                data={data.rows.slice(0, 30).map((r) => ({ label: r.label || none, good: r.good, scrapped: r.scrapped }))}
                dataKey="label"
                stacked
                series={[
                  { name: 'good', label: t`Buoni`, color: 'teal.6' },
                  { name: 'scrapped', label: t`Scarti`, color: 'red.6' },
                ]}
                onBar={(i) => {
                  const r = data.rows[i]
                  if (r) setDrill(rowDrill(r))
                }}
              />
            </ChartBlock>
            <SimpleTable testId="table-groups" rows={data.rows} columns={columns} onRow={(r) => setDrill(rowDrill(r))} empty={<Trans>Nessun pezzo completato nel periodo.</Trans>} />
            <Text fw={600}>
              <Trans>Ordini in ritardo e a rischio</Trans>
            </Text>
            <SimpleTable testId="table-late" rows={data.late} columns={lateColumns} empty={<Trans>Nessun ordine in ritardo o a rischio.</Trans>} />
          </>
        )}
      </ReportBody>
      <DrillDown drill={drill} onClose={() => setDrill(null)} />
    </ReportShell>
  )
}
