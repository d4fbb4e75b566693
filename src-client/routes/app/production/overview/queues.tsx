import {
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  pointerWithin,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { arrayMove, sortableKeyboardCoordinates } from '@dnd-kit/sortable'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Group, Paper, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { type JobRow, MAX_QUEUE_JOBS, type OperatorQueue } from '../../../../../src/domains/jobs/schemas'
import { LoadError, Loading } from '../../../../components/QueryState'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { displayNameOf } from '../../../../lib/user-names'
import { JobCard, MoveToOperatorDialog, OperatorQueueCard, QUEUE_PREFIX } from './-operator-queue-card'
import { DRAG_ANIMATION_MS, MouseOrPenSensor, TOUCH_DELAY_MS } from './workorder/-sortable-table'

export const Route = createFileRoute('/app/production/overview/queues')({
  component: OperatorQueues,
})

/** A drag over the page's cards: the card under the pointer, else the nearest row (keyboard drags have no pointer). */
const collision: CollisionDetection = (args) => {
  const within = pointerWithin(args)
  return within.length ? within : closestCenter(args)
}

/**
 * Each operator's queue in order (SPEC 3 Job assignment, 4 "independent ordering"): drag a job to
 * reorder an independent queue or onto another operator's card to reassign it; the switch turns
 * independent ordering on or off (off: back to the site order). Every change goes to the server
 * (jobs.saveQueue, jobs.assign), which decides; the cards then show what it kept.
 */
function OperatorQueues() {
  const { t } = useLingui()
  // The board shows up to MAX_QUEUE_JOBS per queue (its cards say when more follow), as before paging.
  const assignment = useQuery(trpc.jobs.assignment.queryOptions({ limit: MAX_QUEUE_JOBS, unassigned_limit: MAX_QUEUE_JOBS }))
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  const [search, setSearch] = useState('')
  const [busyOnly, setBusyOnly] = useState(false)
  // While a change is saved the cards show it at once; the server's answer replaces it.
  const [optimistic, setOptimistic] = useState<Record<string, JobRow[]> | null>(null)
  useEffect(() => setOptimistic(null), [assignment.data])
  const [dragged, setDragged] = useState<JobRow | null>(null)
  const [moving, setMoving] = useState<{ job: JobRow; from: OperatorQueue } | null>(null)
  const sensors = useSensors(
    useSensor(MouseOrPenSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: TOUCH_DELAY_MS, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )

  const reorderingAllowed = settings.data?.independent_queue_reordering ?? false
  const queues = assignment.data?.assigned_jobs_by_operator ?? []
  const jobsOf = (q: OperatorQueue) => optimistic?.[q.operator._key] ?? q.jobs
  const shown = useMemo(() => {
    const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean)
    return queues.filter((q) => {
      if (busyOnly && q.jobs.length === 0) return false
      const text = `${displayNameOf(q.operator)} ${q.operator.username}`.toLowerCase()
      return words.every((w) => text.includes(w))
    })
  }, [queues, search, busyOnly])

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() })
  const queueOf = (operatorKey: string) => queues.find((q) => q.operator._key === operatorKey)

  async function saveOrder(queue: OperatorQueue, order: JobRow[]) {
    setOptimistic((prev) => ({ ...prev, [queue.operator._key]: order }))
    try {
      await trpcClient.jobs.saveQueue.mutate({ user_key: queue.operator._key, jobs: order.map((j) => j._key) })
      notifySuccess(t`Coda di ${displayNameOf(queue.operator)} salvata`)
    } catch (e) {
      setOptimistic(null)
      notifyError(e)
    } finally {
      await refresh()
    }
  }

  async function setIndependent(queue: OperatorQueue, independent: boolean) {
    try {
      await trpcClient.jobs.saveQueue.mutate({ user_key: queue.operator._key, independent })
      const name = displayNameOf(queue.operator)
      notifySuccess(independent ? t`${name}: ordinamento indipendente attivo` : t`${name}: la coda torna all'ordine di stabilimento`)
    } catch (e) {
      notifyError(e)
    } finally {
      await refresh()
    }
  }

  /** Reassigns the job; in an independent queue it then takes the wanted place (else the site order places it). */
  async function moveToOperator(job: JobRow, from: OperatorQueue, to: OperatorQueue, index?: number) {
    const target = jobsOf(to).filter((j) => j._key !== job._key)
    const at = index ?? target.length
    setOptimistic((prev) => ({
      ...prev,
      [from.operator._key]: jobsOf(from).filter((j) => j._key !== job._key),
      [to.operator._key]: [...target.slice(0, at), job, ...target.slice(at)],
    }))
    try {
      await trpcClient.jobs.assign.mutate({ job_keys: [job._key], operator_key: to.operator._key })
      if (to.operator.independent && index !== undefined) {
        const order = [...target.slice(0, at), job, ...target.slice(at)].map((j) => j._key)
        await trpcClient.jobs.saveQueue.mutate({ user_key: to.operator._key, jobs: order })
      }
      notifySuccess(t`Job ${job.work_order_code} spostato a ${displayNameOf(to.operator)}`)
    } catch (e) {
      setOptimistic(null)
      notifyError(e)
    } finally {
      await refresh()
    }
  }

  function onDragStart(e: DragStartEvent) {
    setDragged(queues.flatMap((q) => q.jobs).find((j) => j._key === e.active.id) ?? null)
  }

  function onDragEnd(e: DragEndEvent) {
    setDragged(null)
    if (!e.over) return
    const activeId = String(e.active.id)
    const overId = String(e.over.id)
    const from = queues.find((q) => jobsOf(q).some((j) => j._key === activeId))
    const containerId = (e.over.data.current?.sortable?.containerId as string | undefined) ?? overId
    const to = containerId.startsWith(QUEUE_PREFIX) ? queueOf(containerId.slice(QUEUE_PREFIX.length)) : undefined
    if (!from || !to) return
    const job = jobsOf(from).find((j) => j._key === activeId)!
    const targetJobs = jobsOf(to)
    const overIndex = targetJobs.findIndex((j) => j._key === overId)
    if (from.operator._key === to.operator._key) {
      if (overIndex < 0 || activeId === overId) return
      const list = jobsOf(from)
      void saveOrder(from, arrayMove(list, list.indexOf(job), overIndex))
    } else {
      void moveToOperator(job, from, to, overIndex < 0 ? undefined : overIndex)
    }
  }

  if (assignment.isLoading) return <Loading />
  if (assignment.isError) return <LoadError error={assignment.error} />

  return (
    <Stack gap="md">
      <Group gap="md" align="flex-end" wrap="wrap">
        <TextInput label={t`Cerca operatore`} placeholder={t`Nome o username`} type="search" w={260} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Switch label={t`Solo operatori con job`} checked={busyOnly} onChange={(e) => setBusyOnly(e.currentTarget.checked)} mb={6} />
      </Group>
      <Text size="xs" c="dimmed">
        <Trans>
          Trascina un job dalla maniglia ⠿ per riordinare una coda indipendente o sulla scheda di un altro operatore per riassegnarlo; il menu ⋯ di
          ogni job fa lo stesso da tastiera.
        </Trans>
      </Text>
      {!reorderingAllowed && settings.data && (
        <Alert color="gray" variant="light">
          <Trans>Le impostazioni non consentono il riordino indipendente: ogni coda segue l'ordine di stabilimento.</Trans>
        </Alert>
      )}
      {shown.length === 0 ? (
        <Paper withBorder p="lg">
          <Text c="dimmed" ta="center">
            {queues.length === 0 ? <Trans>Nessun operatore</Trans> : <Trans>Nessun operatore corrisponde alla ricerca</Trans>}
          </Text>
        </Paper>
      ) : (
        <DndContext sensors={sensors} collisionDetection={collision} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragged(null)}>
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
            {shown.map((q) => (
              <OperatorQueueCard
                key={q.operator._key}
                queue={q}
                jobs={jobsOf(q)}
                reorderingAllowed={reorderingAllowed}
                onIndependent={(on) => setIndependent(q, on)}
                onReorder={(order) => saveOrder(q, order)}
                onMoveRequest={(job) => setMoving({ job, from: q })}
              />
            ))}
          </SimpleGrid>
          <DragOverlay dropAnimation={{ duration: DRAG_ANIMATION_MS }}>{dragged ? <JobCard job={dragged} overlay /> : null}</DragOverlay>
        </DndContext>
      )}
      {moving && (
        <MoveToOperatorDialog
          job={moving.job}
          from={moving.from}
          queues={queues}
          onClose={() => setMoving(null)}
          onMove={(to) => {
            const target = queueOf(to)
            setMoving(null)
            if (target) void moveToOperator(moving.job, moving.from, target)
          }}
        />
      )}
    </Stack>
  )
}
