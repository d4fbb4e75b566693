import { BarChart, type BarChartSeries } from '@mantine/charts'

type Props = {
  data: Record<string, unknown>[]
  dataKey: string
  series: BarChartSeries[]
  /** A bar (or its column) was clicked: the index of its row in `data`. */
  onBar?: (index: number) => void
  stacked?: boolean
  valueFormatter?: (value: number) => string
  testId: string
  h?: number
}

/** A bar chart whose bars open what is behind them (drill-down). */
export function ReportChart({ data, dataKey, series, onBar, stacked, valueFormatter, testId, h = 260 }: Props) {
  return (
    <div data-testid={testId}>
      <BarChart
        h={h}
        data={data}
        dataKey={dataKey}
        series={series}
        type={stacked ? 'stacked' : 'default'}
        maxBarWidth={64}
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        valueFormatter={valueFormatter}
        tooltipAnimationDuration={0}
        barProps={onBar ? { cursor: 'pointer', onClick: ((_: unknown, index: number) => onBar(index)) as never, isAnimationActive: false } : { isAnimationActive: false }}
      />
    </div>
  )
}
