import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Group, Progress, Text, Tooltip } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { WorkOrderStatus } from '../../../../../src/domains/work-orders/schemas'
import { queryClient, trpc } from '../../../../lib/trpc'

/** Pieces of the work order screens shared by the list, the archive, the new form and the detail. */

export const STATUS_LABELS: Record<WorkOrderStatus, MessageDescriptor> = {
  active: msg`Attivo`,
  completed: msg`Completato`,
  closed: msg`Chiuso`,
}
const STATUS_COLORS: Record<WorkOrderStatus, string> = { active: 'blue', completed: 'green', closed: 'gray' }

/** Badges keep their whole label in narrow columns. */
const badgeStyles = { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } as const

export function StatusBadge({ status }: { status: WorkOrderStatus }) {
  const { i18n } = useLingui()
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" styles={badgeStyles} data-testid="wo-status">
      {i18n._(STATUS_LABELS[status])}
    </Badge>
  )
}

/** Late / on time for active work orders with a due date (finished ones show nothing). */
export function TimingBadge({ late, status, dueBy }: { late: boolean; status: WorkOrderStatus; dueBy: string | null }) {
  if (status !== 'active' || !dueBy) return null
  return late ? (
    <Badge color="red" variant="filled" size="sm" styles={badgeStyles} data-testid="wo-late">
      <Trans>In ritardo</Trans>
    </Badge>
  ) : (
    <Badge color="teal" variant="light" size="sm" styles={badgeStyles} data-testid="wo-on-time">
      <Trans>In tempo</Trans>
    </Badge>
  )
}

/**
 * Critical marks (issue 11): a critical issue open on the work order (or job) itself, filled; on
 * one of a work order's open jobs (`criticalJob`), outlined: the job list says which.
 */
export function CriticalMarker({ critical, criticalJob = false }: { critical: boolean; criticalJob?: boolean }) {
  const { t } = useLingui()
  if (critical) {
    return (
      <Tooltip label={t`Segnalazione critica aperta`} openDelay={200}>
        <Badge color="red" variant="filled" size="sm" styles={badgeStyles} aria-label={t`Critico`} data-testid="wo-critical">
          !
        </Badge>
      </Tooltip>
    )
  }
  if (!criticalJob) return null
  return (
    <Tooltip label={t`Un job ha una segnalazione critica aperta`} openDelay={200}>
      <Badge color="red" variant="outline" size="sm" styles={badgeStyles} aria-label={t`Job critico`} data-testid="wo-critical-job">
        !
      </Badge>
    </Tooltip>
  )
}

export function ProgressCell({ progress, completed, planned }: { progress: number; completed?: number; planned?: number }) {
  const { t } = useLingui()
  return (
    <Group gap="xs" wrap="nowrap" miw={110}>
      <Progress value={progress} color={progress >= 100 ? 'green' : 'blue'} size="lg" radius="sm" w={72} aria-label={t`Avanzamento ${progress}%`} />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {progress}%{completed !== undefined && planned !== undefined ? ` (${completed}/${planned})` : ''}
      </Text>
    </Group>
  )
}

/** The settings flag that decides whether jobs may stay unassigned. */
export function useAllowUnassigned(): boolean | undefined {
  const { data } = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  return data?.allow_unassigned_jobs
}

/** After a change: every work order list, the queue and the detail read again, and the job lists (jobs change with them). */
export async function invalidateWorkOrders() {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.workOrders.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() }),
  ])
}

/** The work order read by the detail header and every tab (one query, shared through the cache). */
export function useWorkOrder(key: string) {
  return useQuery(trpc.workOrders.get.queryOptions({ key }))
}
