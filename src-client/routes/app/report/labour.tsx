import { Trans, useLingui } from '@lingui/react/macro'
import { Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { LabourReport } from '../../../../src/domains/reports/schemas'
import { type Drill, DrillDown } from '../../../components/reports/DrillDown'
import { bucketLabel, count, hours, money } from '../../../components/reports/format'
import { ReportChart } from '../../../components/reports/ReportChart'
import { ReportBody, useReportDrill } from '../../../components/reports/ReportFrame'
import { ChartBlock, ReportShell } from '../../../components/reports/ReportShell'
import { type ReportSearch, reportInput, validateReportSearch } from '../../../components/reports/report-search'
import { type Column, Figures, SimpleTable } from '../../../components/reports/SimpleTable'
import { trpc } from '../../../lib/trpc'

export const Route = createFileRoute('/app/report/labour')({
  validateSearch: validateReportSearch,
  component: LabourReportPage,
})

const H = 3_600_000

type Times = Pick<LabourReport['totals'], 'worked_ms' | 'pause_ms' | 'forced_pause_ms' | 'offline_ms'>
/** The four kinds of time as chart values, in hours. */
const timeBars = (x: Times) => ({ worked: x.worked_ms / H, pause: x.pause_ms / H, forced: x.forced_pause_ms / H, offline: x.offline_ms / H })

function LabourReportPage() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const setSearch = (patch: Partial<ReportSearch>) => navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const report = useQuery({ ...trpc.reports.labour.queryOptions(reportInput(search)), placeholderData: keepPreviousData })
  const { drill, setDrill, period, periodDrill } = useReportDrill(search)
  const h = (ms: number) => hours(ms, i18n.locale)
  const timeSeries = [
    { name: 'worked', label: t`Lavoro`, color: 'teal.6' },
    { name: 'pause', label: t`Pause`, color: 'yellow.6' },
    { name: 'forced', label: t`Pause forzate`, color: 'orange.6' },
    { name: 'offline', label: t`Offline`, color: 'red.6' },
  ]
  type Op = LabourReport['operators'][number]
  type Wo = LabourReport['work_orders'][number]
  const opDrill = (o: Op): Drill => ({
    title: t`Job di ${o.name || o.username}`,
    input: { ...reportInput(search), operator_key: o.operator_key },
    filter: () => setSearch({ operator: o.operator_key, label: o.name || o.username }),
  })
  const opColumns: Column<Op>[] = [
    { id: 'name', header: <Trans>Operatore</Trans>, cell: (o) => o.name || o.username },
    { id: 'worked', header: <Trans>Ore lavorate</Trans>, cell: (o) => h(o.worked_ms), numeric: true },
    { id: 'pause', header: <Trans>Pause</Trans>, cell: (o) => h(o.pause_ms), numeric: true },
    { id: 'forced', header: <Trans>Pause forzate</Trans>, cell: (o) => h(o.forced_pause_ms), numeric: true },
    { id: 'offline', header: <Trans>Offline</Trans>, cell: (o) => h(o.offline_ms), numeric: true },
    { id: 'sessions', header: <Trans>Sessioni</Trans>, cell: (o) => count(o.sessions, i18n.locale), numeric: true },
    { id: 'pieces', header: <Trans>Pezzi</Trans>, cell: (o) => count(o.pieces, i18n.locale), numeric: true },
    { id: 'std', header: <Trans>Ore standard</Trans>, cell: (o) => h(o.std_ms), numeric: true },
    { id: 'rate', header: <Trans>Costo orario</Trans>, cell: (o) => `${money(o.hourly_cost, i18n.locale)}${o.default_cost ? ' *' : ''}`, numeric: true },
    { id: 'cost', header: <Trans>Costo</Trans>, cell: (o) => money(o.cost, i18n.locale), numeric: true },
  ]
  const woColumns: Column<Wo>[] = [
    { id: 'code', header: <Trans>Ordine di lavoro</Trans>, cell: (w) => w.code },
    { id: 'product', header: <Trans>Prodotto</Trans>, cell: (w) => w.product_code },
    { id: 'worked', header: <Trans>Ore lavorate</Trans>, cell: (w) => h(w.worked_ms), numeric: true },
    { id: 'std', header: <Trans>Ore standard</Trans>, cell: (w) => h(w.std_ms), numeric: true },
    { id: 'cost', header: <Trans>Costo</Trans>, cell: (w) => money(w.cost, i18n.locale), numeric: true },
    { id: 'std_cost', header: <Trans>Costo standard</Trans>, cell: (w) => money(w.std_cost, i18n.locale), numeric: true },
    { id: 'pieces', header: <Trans>Pezzi finiti</Trans>, cell: (w) => count(w.pieces, i18n.locale), numeric: true },
    { id: 'cpp', header: <Trans>Costo per pezzo</Trans>, cell: (w) => money(w.cost_per_piece, i18n.locale), numeric: true },
    { id: 'scpp', header: <Trans>Costo std per pezzo</Trans>, cell: (w) => money(w.std_cost_per_piece, i18n.locale), numeric: true },
  ]

  return (
    <ReportShell
      title={<Trans>Manodopera e costi</Trans>}
      description={<Trans>Ore per operatore dalle sessioni di lavoro, con pause, pause forzate e tempo offline a parte; costo della manodopera.</Trans>}
      note={
        <Trans>
          Costo = ore lavorate × costo orario dell'utente (* = costo operatore predefinito delle impostazioni). Una pausa conta fino alla ripresa dello stesso giorno;
          costo per pezzo sui pezzi dell'ultima fase completati nel periodo.
        </Trans>
      }
      search={search}
      setSearch={setSearch}
      csvName="manodopera"
      tables={() =>
        report.data
          ? [
              {
                title: t`Ore per operatore`,
                header: [t`Operatore`, t`Ore lavorate`, t`Pause`, t`Pause forzate`, t`Offline`, t`Sessioni`, t`Pezzi`, t`Ore standard`, t`Costo orario`, t`Costo`],
                rows: report.data.operators.map((o) => [
                  o.name || o.username,
                  +(o.worked_ms / H).toFixed(2),
                  +(o.pause_ms / H).toFixed(2),
                  +(o.forced_pause_ms / H).toFixed(2),
                  +(o.offline_ms / H).toFixed(2),
                  o.sessions,
                  o.pieces,
                  +(o.std_ms / H).toFixed(2),
                  o.hourly_cost,
                  o.cost,
                ]),
              },
              {
                title: t`Costo per ordine di lavoro`,
                header: [t`Ordine di lavoro`, t`Prodotto`, t`Ore lavorate`, t`Ore standard`, t`Costo`, t`Costo standard`, t`Pezzi finiti`, t`Costo per pezzo`, t`Costo std per pezzo`],
                rows: report.data.work_orders.map((w) => [
                  w.code,
                  w.product_code,
                  +(w.worked_ms / H).toFixed(2),
                  +(w.std_ms / H).toFixed(2),
                  w.cost,
                  w.std_cost,
                  w.pieces,
                  w.cost_per_piece,
                  w.std_cost_per_piece,
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
                { label: <Trans>Ore lavorate</Trans>, value: h(data.totals.worked_ms), testId: 'fig-worked' },
                { label: <Trans>Pause</Trans>, value: h(data.totals.pause_ms) },
                { label: <Trans>Pause forzate</Trans>, value: h(data.totals.forced_pause_ms) },
                { label: <Trans>Offline</Trans>, value: h(data.totals.offline_ms) },
                { label: <Trans>Costo</Trans>, value: money(data.totals.cost, i18n.locale), testId: 'report-figures-cost' },
              ]}
            />
            <ChartBlock title={<Trans>Ore per periodo</Trans>} hint={<Trans>Tocca una barra per vedere i job.</Trans>}>
              <ReportChart
                testId="chart-buckets"
                stacked
                valueFormatter={(v) => h(v * H)}
                data={data.buckets.map((b) => ({ label: bucketLabel(b.bucket, period), ...timeBars(b) }))}
                dataKey="label"
                series={timeSeries}
                onBar={(i) => {
                  const b = data.buckets[i]
                  if (b) setDrill(periodDrill(b.bucket))
                }}
              />
            </ChartBlock>
            <ChartBlock title={<Trans>Ore per operatore</Trans>} hint={<Trans>Tocca una barra o una riga per vedere i job.</Trans>}>
              <ReportChart
                testId="chart-groups"
                stacked
                valueFormatter={(v) => h(v * H)}
                data={data.operators.map((o) => ({ label: o.name || o.username, ...timeBars(o) }))}
                dataKey="label"
                series={timeSeries}
                onBar={(i) => {
                  const o = data.operators[i]
                  if (o) setDrill(opDrill(o))
                }}
              />
            </ChartBlock>
            <SimpleTable testId="table-groups" rows={data.operators} columns={opColumns} onRow={(o) => setDrill(opDrill(o))} empty={<Trans>Nessuna sessione di lavoro nel periodo.</Trans>} />
            <Text fw={600}>
              <Trans>Costo per ordine di lavoro</Trans>
            </Text>
            <SimpleTable testId="table-work-orders" rows={data.work_orders} columns={woColumns} empty={<Trans>Nessun ordine nel periodo.</Trans>} />
          </>
        )}
      </ReportBody>
      <DrillDown drill={drill} onClose={() => setDrill(null)} />
    </ReportShell>
  )
}
