import { Trans, useLingui } from '@lingui/react/macro'
import { Stack, Tabs } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { JobFilter } from '../../../../../../src/domains/jobs/rules'
import type { JobListSearch } from './-job-list-search'
import { JobsTable, type JobsTableFilters } from '../../../../../components/jobs/JobsTable'
import { FLOOR_TOPICS, useLive } from '../../../../../lib/live'
import { trpc } from '../../../../../lib/trpc'

const ALL = '__all__'

/** `overview/job` and `overview/job/$department`: the department tabs over the shared JobsTable. */
export function JobListPage({ departmentKey, search }: { departmentKey?: string; search: JobListSearch }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const departments = useQuery({ ...trpc.departments.list.queryOptions(), staleTime: 60_000 })
  // Progress, status, assignment and critical marks changed by anyone show at once.
  useLive(FLOOR_TOPICS, () => [trpc.jobs.list.pathKey()])
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
