import { useLingui } from '@lingui/react/macro'
import { Stack } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { LoadError, Loading } from '../QueryState'
import type { Drill } from './DrillDown'
import { bucketLabel } from './format'
import { rangeOf, type ReportSearch, reportInput } from './report-search'

/** What every report page does between its filters and its numbers: the load, its refusal, the figures block. */
export function ReportBody<T>({ report, children }: { report: { isError: boolean; error: unknown; data?: T }; children: (data: T) => ReactNode }) {
  if (report.isError) return <LoadError error={report.error} />
  if (!report.data) return <Loading />
  return <Stack gap="md">{children(report.data)}</Stack>
}

/** The drill-down a report page opens, and the one behind a bar of the "per period" chart. */
export function useReportDrill(search: ReportSearch) {
  const { t } = useLingui()
  const [drill, setDrill] = useState<Drill | null>(null)
  const period = rangeOf(search).period
  const periodDrill = (bucket: string): Drill => ({ title: t`Job del periodo ${bucketLabel(bucket, period)}`, input: { ...reportInput(search), bucket } })
  return { drill, setDrill, period, periodDrill }
}
