import '@mantine/charts/styles.css'
import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, CloseButton, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useEffect, useState } from 'react'
import type { ReportPeriod } from '../../../src/domains/reports/schemas'
import { DateField } from '../DateField'
import { download, downloadCsv, type ExportTable, toCsv } from './csv'
import { toXlsx } from './xlsx'
import { FILTER_KEYS, type FilterKey, type QuickPeriod, quickRange, rangeOf, type ReportSearch } from './report-search'

type Props = {
  title: ReactNode
  description: ReactNode
  /** The formula or reading rule shown next to the numbers. */
  note?: ReactNode
  search: ReportSearch
  setSearch: (patch: Partial<ReportSearch>) => void
  groups?: { value: string; label: string }[]
  group?: string
  /** Every table of the page, as exported (CSV and Excel). */
  tables: () => ExportTable[] | null
  csvName: string
  children: ReactNode
}

// Print: only the report (no navigation, no controls), in light colours.
const PRINT_CSS = `@media print {
  .mantine-AppShell-header, .mantine-AppShell-navbar, [data-report-noprint] { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  body { background: white !important; color: black !important; }
  [data-report-chart] { break-inside: avoid; }
}`

/**
 * The frame of every report: title, date range with quick periods, period and grouping, the
 * filters a drill-down set (removable), CSV export of the table and a print-friendly page.
 */
export function ReportShell({ title, description, note, search, setSearch, groups, group, tables, csvName, children }: Props) {
  const { t, i18n } = useLingui()
  const range = rangeOf(search)
  const [line, setLine] = useState(search.line ?? '')
  useEffect(() => setLine(search.line ?? ''), [search.line])
  const quick: { id: QuickPeriod; label: string }[] = [
    { id: 'today', label: t`Oggi` },
    { id: 'week', label: t`Questa settimana` },
    { id: 'last30', label: t`Ultimi 30 giorni` },
    { id: 'month', label: t`Questo mese` },
    { id: 'lastMonth', label: t`Mese scorso` },
    { id: 'year', label: t`Quest'anno` },
  ]
  const periods: { value: ReportPeriod; label: string }[] = [
    { value: 'day', label: t`Giorno` },
    { value: 'week', label: t`Settimana` },
    { value: 'month', label: t`Mese` },
    { value: 'year', label: t`Anno` },
  ]
  const filterNames: Record<FilterKey, string> = {
    product: t`Prodotto`,
    work_order: t`Ordine di lavoro`,
    phase: t`Fase`,
    department: t`Reparto`,
    operator: t`Operatore`,
    line: t`Linea`,
  }
  const active = FILTER_KEYS.filter((k) => k !== 'line' && search[k])
  const exportCsv = () => {
    const all = tables()
    if (all) downloadCsv(`${csvName}-${range.from}-${range.to}.csv`, toCsv(all, i18n.locale))
  }
  const exportXlsx = async () => {
    const all = tables()
    if (all) download(`${csvName}-${range.from}-${range.to}.xlsx`, await toXlsx(all))
  }

  return (
    <Stack gap="md">
      <style>{PRINT_CSS}</style>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{title}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {description}
          </Text>
          <Text size="sm" mt={4} data-testid="report-range">
            <Trans>
              Dal {range.from.replaceAll('-', '/')} al {range.to.replaceAll('-', '/')}
            </Trans>
          </Text>
        </div>
        <Group gap="xs" data-report-noprint>
          <Button variant="default" onClick={exportCsv} data-testid="report-csv">
            <Trans>Esporta CSV</Trans>
          </Button>
          <Button variant="default" onClick={() => void exportXlsx()} data-testid="report-xlsx">
            <Trans>Esporta Excel</Trans>
          </Button>
          <Button variant="default" onClick={() => window.print()} data-testid="report-print">
            <Trans>Stampa</Trans>
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="sm" data-report-noprint>
        <Stack gap="xs">
          <Group gap="xs" data-testid="report-quick">
            {quick.map((q) => {
              const r = quickRange(q.id)
              const on = r.from === range.from && r.to === range.to
              return (
                <Button key={q.id} size="xs" variant={on ? 'filled' : 'light'} onClick={() => setSearch(r)}>
                  {q.label}
                </Button>
              )
            })}
          </Group>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <DateField label={t`Dal`} value={range.from} onChange={(v) => v && setSearch({ from: v, to: v > range.to ? v : range.to })} w={150} data-testid="report-from" />
            <DateField label={t`Al`} value={range.to} onChange={(v) => v && setSearch({ to: v, from: v < range.from ? v : range.from })} w={150} data-testid="report-to" />
            <Select
              label={t`Periodo`}
              data={periods}
              value={range.period}
              onChange={(v) => v && setSearch({ period: v as ReportPeriod, from: range.from, to: range.to })}
              allowDeselect={false}
              w={140}
              data-testid="report-period"
            />
            {groups && (
              <Select label={t`Raggruppa per`} data={groups} value={group} onChange={(v) => v && setSearch({ group: v })} allowDeselect={false} w={180} data-testid="report-group" />
            )}
            <TextInput
              label={t`Linea`}
              value={line}
              onChange={(e) => setLine(e.currentTarget.value)}
              onBlur={() => setSearch({ line: line.trim() || undefined })}
              onKeyDown={(e) => e.key === 'Enter' && setSearch({ line: line.trim() || undefined })}
              maxLength={100}
              w={140}
              data-testid="report-line"
            />
          </Group>
          {active.length > 0 && (
            <Group gap="xs">
              {active.map((k) => (
                <Badge key={k} variant="light" size="lg" rightSection={<CloseButton size="xs" aria-label={t`Togli filtro`} onClick={() => setSearch({ [k]: undefined, label: undefined })} />}>
                  {filterNames[k]}: {search.label ?? search[k]}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
      </Paper>
      {note && (
        <Text size="sm" c="dimmed" data-testid="report-note">
          {note}
        </Text>
      )}
      {children}
    </Stack>
  )
}

/** A chart with its heading, kept together when printed. */
export function ChartBlock({ title, children, hint }: { title: ReactNode; children: ReactNode; hint?: ReactNode }) {
  return (
    <Paper withBorder p="md" data-report-chart>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" mb="xs" data-report-noprint>
          {hint}
        </Text>
      )}
      {children}
    </Paper>
  )
}
