import { useDroppable } from '@dnd-kit/core'
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Group, Menu, Modal, Paper, ScrollArea, Select, Stack, Switch, Text, Tooltip } from '@mantine/core'
import { useState } from 'react'
import type { JobRow, OperatorQueue } from '../../../../../src/domains/jobs/schemas'
import { StatusBadge } from '../../../../components/jobs/JobsTable'
import { displayNameOf } from '../../../../lib/user-names'
import { CriticalMarker } from '../workorder/-workorder-ui'
import { DRAG_ANIMATION_MS } from './workorder/-sortable-table'

/** Droppable and sortable-container ids of a card: `queue:<operator key>`. */
export const QUEUE_PREFIX = 'queue:'

type CardProps = {
  queue: OperatorQueue
  jobs: JobRow[]
  reorderingAllowed: boolean
  onIndependent: (on: boolean) => void
  onReorder: (order: JobRow[]) => void
  onMoveRequest: (job: JobRow) => void
}

/** One operator: the switch for independent ordering and the queue, a drop target for jobs of other operators. */
export function OperatorQueueCard({ queue, jobs, reorderingAllowed, onIndependent, onReorder, onMoveRequest }: CardProps) {
  const { t } = useLingui()
  const id = `${QUEUE_PREFIX}${queue.operator._key}`
  const { setNodeRef, isOver } = useDroppable({ id })
  const name = displayNameOf(queue.operator)
  const independent = queue.operator.independent
  const move = (from: number, to: number) => {
    const next = [...jobs]
    const [job] = next.splice(from, 1)
    next.splice(to, 0, job!)
    onReorder(next)
  }
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      ref={setNodeRef}
      data-testid="operator-queue"
      data-operator={queue.operator.username}
      aria-label={t`Coda di ${name}`}
      style={{ outline: isOver ? '2px solid var(--mantine-color-blue-5)' : undefined }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {name}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {queue.operator.username} · <Plural value={jobs.length} one="# job" other="# job" />
            </Text>
          </div>
          <Tooltip label={t`Le impostazioni non consentono il riordino indipendente`} disabled={reorderingAllowed || independent}>
            <Switch
              size="sm"
              label={t`Ordine indipendente`}
              checked={independent}
              disabled={!reorderingAllowed && !independent}
              onChange={(e) => onIndependent(e.currentTarget.checked)}
              styles={{ label: { whiteSpace: 'nowrap' } }}
            />
          </Tooltip>
        </Group>
        <Text size="xs" c="dimmed">
          {independent ? <Trans>Ordine proprio dell'operatore</Trans> : <Trans>Segue l'ordine di stabilimento</Trans>}
        </Text>
        <ScrollArea.Autosize mah={460} type="auto">
          <SortableContext id={id} items={jobs.map((j) => j._key)} strategy={verticalListSortingStrategy}>
            <Stack gap={6} mih={48} data-testid="queue-jobs">
              {jobs.map((job, i) => (
                <SortableJob
                  key={job._key}
                  job={job}
                  index={i}
                  count={jobs.length}
                  independent={independent}
                  onMove={(to) => move(i, to)}
                  onMoveRequest={() => onMoveRequest(job)}
                />
              ))}
              {jobs.length === 0 && (
                <Text size="sm" c="dimmed" ta="center" py="sm">
                  <Trans>Nessun job: trascina qui un job per assegnarlo</Trans>
                </Text>
              )}
            </Stack>
          </SortableContext>
        </ScrollArea.Autosize>
        {queue.more && (
          <Text size="xs" c="dimmed">
            <Trans>Altri job non mostrati: la coda è molto lunga</Trans>
          </Text>
        )}
      </Stack>
    </Paper>
  )
}

type JobProps = {
  job: JobRow
  index: number
  count: number
  independent: boolean
  onMove: (to: number) => void
  onMoveRequest: () => void
}

function SortableJob({ job, index, count, independent, onMove, onMoveRequest }: JobProps) {
  const { t } = useLingui()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: job._key,
    transition: { duration: DRAG_ANIMATION_MS, easing: 'ease' },
  })
  const reorderHint = independent ? undefined : t`Attiva l'ordinamento indipendente per riordinare`
  return (
    <div ref={setNodeRef} style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.4 : undefined }}>
      <JobCard
        job={job}
        position={index + 1}
        handle={
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t`Trascina il job ${job.work_order_code}`}
            data-testid="queue-drag-handle"
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            ⠿
          </ActionIcon>
        }
        menu={
          <Menu position="bottom-end" withinPortal width={240}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t`Azioni sul job ${job.work_order_code}`} data-testid="queue-job-menu">
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{reorderHint ?? t`Posizione nella coda`}</Menu.Label>
              <Menu.Item disabled={!independent || index === 0} onClick={() => onMove(0)}>
                <Trans>In cima alla coda</Trans>
              </Menu.Item>
              <Menu.Item disabled={!independent || index === 0} onClick={() => onMove(index - 1)}>
                <Trans>Sposta su</Trans>
              </Menu.Item>
              <Menu.Item disabled={!independent || index === count - 1} onClick={() => onMove(index + 1)}>
                <Trans>Sposta giù</Trans>
              </Menu.Item>
              <Menu.Item disabled={!independent || index === count - 1} onClick={() => onMove(count - 1)}>
                <Trans>In fondo alla coda</Trans>
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item onClick={onMoveRequest}>
                <Trans>Sposta a un altro operatore…</Trans>
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        }
      />
    </div>
  )
}

/** A job as a card row: place, work order, phase, product, pieces, state. */
export function JobCard({
  job,
  position,
  handle,
  menu,
  overlay = false,
}: {
  job: JobRow
  position?: number
  handle?: React.ReactNode
  menu?: React.ReactNode
  overlay?: boolean
}) {
  return (
    <Paper
      withBorder
      radius="sm"
      px={6}
      py={4}
      data-testid="queue-job"
      data-job-key={job._key}
      shadow={overlay ? 'md' : undefined}
      style={overlay ? { cursor: 'grabbing' } : undefined}
    >
      <Group gap={6} wrap="nowrap" align="center">
        {handle ?? (
          <ActionIcon variant="subtle" color="gray" size="lg" component="span" aria-hidden>
            ⠿
          </ActionIcon>
        )}
        {position !== undefined && (
          <Text size="sm" c="dimmed" w={22} ta="right" data-testid="queue-position">
            {position}.
          </Text>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={600} data-testid="queue-job-code">
              {job.work_order_code}
            </Text>
            <Text size="sm" truncate>
              {job.phase_position}. {job.phase_name}
            </Text>
            <CriticalMarker critical={job.critical} />
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {job.product_code} ·{' '}
            <Trans>
              {job.completed_qt} di {job.quantity} pezzi
            </Trans>
            {job.due_by ? (
              <>
                {' · '}
                <Trans>consegna {job.due_by}</Trans>
              </>
            ) : null}
          </Text>
        </div>
        <StatusBadge job={job} />
        {menu}
      </Group>
    </Paper>
  )
}

/** "Move to another operator" for keyboard and touch: choose the operator, confirm. */
export function MoveToOperatorDialog({
  job,
  from,
  queues,
  onClose,
  onMove,
}: {
  job: JobRow
  from: OperatorQueue
  queues: OperatorQueue[]
  onClose: () => void
  onMove: (operatorKey: string) => void
}) {
  const { t } = useLingui()
  const [target, setTarget] = useState<string | null>(null)
  const options = queues.filter((q) => q.operator._key !== from.operator._key).map((q) => ({ value: q.operator._key, label: displayNameOf(q.operator) }))
  const code = job.work_order_code
  return (
    <Modal opened onClose={onClose} title={t`Sposta il job ${code} a un altro operatore`} closeButtonProps={{ 'aria-label': t`Chiudi` }}>
      <Stack>
        <Text size="sm">
          <Trans>
            Fase {job.phase_name}, ora nella coda di {displayNameOf(from.operator)}.
          </Trans>
        </Text>
        <Select label={t`Operatore`} data={options} value={target} onChange={setTarget} searchable nothingFoundMessage={t`Nessun operatore`} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button disabled={!target} onClick={() => target && onMove(target)}>
            <Trans>Sposta</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
