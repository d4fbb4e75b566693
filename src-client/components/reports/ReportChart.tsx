import { BarChart, type BarChartSeries } from '@mantine/charts'
import { Trans } from '@lingui/react/macro'
import { Center, Text } from '@mantine/core'

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

/**
 * A bar chart whose bars open what is behind them (drill-down). Without a value other than zero it
 * says there is no data instead of drawing an empty grid. The category axis shows evenly spaced
 * labels (the last one is not squeezed in after a shorter gap).
 */
export function ReportChart({ data, dataKey, series, onBar, stacked, valueFormatter, testId, h = 260 }: Props) {
  const empty = !data.some((row) => series.some((s) => Number(row[s.name] ?? 0) !== 0))
  if (empty)
    return (
      <Center h={h / 2} data-testid={testId} data-empty>
        <Text c="dimmed" size="sm" data-testid={`${testId}-empty`}>
          <Trans>Nessun dato da mostrare nel periodo.</Trans>
        </Text>
      </Center>
    )
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
        xAxisProps={{ interval: 'equidistantPreserveStart' }}
        barProps={onBar ? { cursor: 'pointer', onClick: ((_: unknown, index: number) => onBar(index)) as never, isAnimationActive: false } : { isAnimationActive: false }}
      />
    </div>
  )
}
