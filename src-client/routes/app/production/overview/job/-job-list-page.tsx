import { Trans, useLingui } from '@lingui/react/macro'
import { Stack, Tabs } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { JOB_FILTERS, type JobFilter } from '../../../../../../src/domains/jobs/rules'
import { JobsTable, type JobsTableFilters } from '../../../../../components/jobs/JobsTable'
import { trpc } from '../../../../../lib/trpc'

/** The job list's filters live in the URL: back from elsewhere finds the same list. */
export type JobListSearch = { f?: string; q?: string; op?: string }

export function validateJobListSearch(raw: Record<string, unknown>): JobListSearch {
  const filters = typeof raw.f === 'string' ? raw.f.split(',').filter((x): x is JobFilter => (JOB_FILTERS as readonly string[]).includes(x)) : []
  return {
    f: filters.length ? filters.join(',') : undefined,
    q: typeof raw.q === 'string' && raw.q.trim() ? raw.q.slice(0, 100) : undefined,
    op: typeof raw.op === 'string' && /^[0-9a-f-]{36}$/i.test(raw.op) ? raw.op : undefined,
  }
}

const ALL = '__all__'

/** `overview/job` and `overview/job/$department`: the department tabs over the shared JobsTable. */
export function JobListPage({ departmentKey, search }: { departmentKey?: string; search: JobListSearch }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const departments = useQuery({ ...trpc.departments.list.queryOptions(), staleTime: 60_000 })
  const value: JobsTableFilters = {
    filters: (search.f?.split(',') ?? []) as JobFilter[],
    search: search.q ?? '',
    operator_key: search.op ?? null,
  }
  const toSearch = (v: JobsTableFilters): JobListSearch => ({
    f: v.filters.length ? v.filters.join(',') : undefined,
    q: v.search || undefined,
    op: v.operator_key ?? undefined,
  })
  const onChange = (v: JobsTableFilters) => {
    const next = toSearch(v)
    if (departmentKey) void navigate({ to: '/app/production/overview/job/$department', params: { department: departmentKey }, search: next, replace: true })
    else void navigate({ to: '/app/production/overview/job', search: next, replace: true })
  }
  const onTab = (tab: string | null) => {
    const keep = toSearch(value)
    if (!tab || tab === ALL) void navigate({ to: '/app/production/overview/job', search: keep })
    else void navigate({ to: '/app/production/overview/job/$department', params: { department: tab }, search: keep })
  }
  return (
    <Stack gap="sm">
      <Tabs value={departmentKey ?? ALL} onChange={onTab} variant="pills" keepMounted={false}>
        <Tabs.List aria-label={t`Reparti`}>
          <Tabs.Tab value={ALL}>
            <Trans>Tutti i reparti</Trans>
          </Tabs.Tab>
          {(departments.data ?? []).map((d) => (
            <Tabs.Tab key={d._key} value={d._key}>
              {d.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <JobsTable scope={departmentKey ? { department_key: departmentKey } : {}} value={value} onChange={onChange} />
    </Stack>
  )
}
