import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Progress, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core'
import { createFileRoute, Link, Outlet } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useState } from 'react'
import type { WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import { formatDate } from '../../../../../../src/i18n/format'
import { HistoryRecordButton } from '../../../../../components/history-record/HistoryRecordButton'
import { IssuesTabLabel } from '../../../../../components/issues/IssuesTabLabel'
import { UnreadTabLabel } from '../../../../../components/messages/unread'
import { workOrderThreads } from '../../../../../components/messages/work-order-threads'
import { RevisionUpdateDialog } from '../../../../../components/revisions/RevisionUpdateDialog'
import { RouteTabs } from '../../../../../components/RouteTabs'
import { WorkOrderPrints } from '../../../../../components/printing/WorkOrderPrints'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { FLOOR_TOPICS, useLive } from '../../../../../lib/live'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { CriticalMarker, invalidateWorkOrders, StatusBadge, TimingBadge, useWorkOrder } from '../-workorder-ui'
import { QuantityDialog } from './-quantity-dialog'
import { Loading } from '../../../../../components/QueryState'

export const Route = createFileRoute('/app/production/workorder/$wo_key')({
  component: WorkOrderLayout,
})

function WorkOrderLayout() {
  const { wo_key } = Route.useParams()
  const wo = useWorkOrder(wo_key)
  const base = `/app/production/workorder/${wo_key}`
  useFollowJobChanges(wo_key)
  // Its progress, status, jobs and critical marks, changed by anyone, show at once.
  useLive(FLOOR_TOPICS, (e) => (e.keys.work_order === wo_key || e.topic === 'issues' ? [trpc.workOrders.pathKey(), trpc.jobs.list.pathKey()] : []))

  if (wo.isLoading) return <Loading />
  if (!wo.data) {
    return (
      <Stack>
        <BackToList />
        <Alert color="red">{wo.error ? errorMessage(toApiError(wo.error)) : <Trans>Ordine di lavoro non trovato</Trans>}</Alert>
      </Stack>
    )
  }
  return (
    <>
      <BackToList archived={wo.data.archived_at !== null} />
      <Header wo={wo.data} />
      <Group justify="flex-end" gap="xs" align="flex-start">
        <HistoryRecordButton subject="work-order" subjectKey={wo_key} />
        <WorkOrderPrints workOrderKey={wo_key} />
      </Group>
      <RouteTabs
        tabs={[
          { to: `${base}/job-list`, label: <Trans>Lista job</Trans> },
          { to: `${base}/bom`, label: <Trans>Materiale</Trans> },
          { to: `${base}/history`, label: <Trans>Storico</Trans> },
          { to: `${base}/issues`, label: <IssuesTabLabel scope={{ work_order_key: wo_key }} /> },
          { to: `${base}/notes`, label: <Trans>Note</Trans> },
          {
            to: `${base}/messages`,
            label: (
              <UnreadTabLabel contexts={workOrderThreads(wo.data)}>
                <Trans>Messaggi</Trans>
              </UnreadTabLabel>
            ),
          },
          { to: `${base}/traceability`, label: <Trans>Tracciabilità</Trans> },
        ]}
      />
      <Outlet />
    </>
  )
}

/**
 * Jobs change from the shared job list (assignment, rebalancing, corrections): when a job query
 * receives new data, the work order (its phases and jobs) is read again.
 */
function useFollowJobChanges(key: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    // tRPC query keys start with the procedure path: [['jobs', 'list'], {input, type}].
    const [[router]] = trpc.jobs.pathKey() as unknown as [[string]]
    let timer: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return
      const path = event.query.queryKey[0]
      if (!Array.isArray(path) || path[0] !== router) return
      clearTimeout(timer)
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.workOrders.get.queryKey({ key }) }), 100)
    })
    return () => {
      clearTimeout(timer)
      unsubscribe()
    }
  }, [queryClient, key])
}

function BackToList({ archived = false }: { archived?: boolean }) {
  return (
    <Anchor
      component={Link}
      to={archived ? '/app/production/overview/workorder/archive' : '/app/production/overview/workorder'}
      size="sm"
      mb="xs"
      display="inline-block"
    >
      ← {archived ? <Trans>Archivio</Trans> : <Trans>Ordini di lavoro</Trans>}
    </Anchor>
  )
}

type Confirm = 'close' | 'archive' | null

function Header({ wo }: { wo: WorkOrderDetail }) {
  const { t } = useLingui()
  const [quantityOpen, setQuantityOpen] = useState(false)
  const [revisionOpen, setRevisionOpen] = useState(false)
  const queryClient = useQueryClient()
  // The dialog starts from the jobs as they are now (others may have rebalanced meanwhile).
  async function openQuantity() {
    await queryClient.refetchQueries({ queryKey: trpc.workOrders.get.queryKey({ key: wo._key }) }).catch(() => {})
    setQuantityOpen(true)
  }
  const [confirm, setConfirm] = useState<Confirm>(null)
  const [busy, setBusy] = useState(false)
  const archived = wo.archived_at !== null
  const finished = wo.status === 'completed' || wo.status === 'closed'

  async function run(action: () => Promise<unknown>, success: string) {
    setBusy(true)
    try {
      await action()
      notifySuccess(success)
      setConfirm(null)
      await invalidateWorkOrders()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  const close = () => run(() => trpcClient.workOrders.patch.mutate({ key: wo._key, patch: { status: 'closed' } }), t`Ordine di lavoro chiuso`)
  const reopen = () => run(() => trpcClient.workOrders.patch.mutate({ key: wo._key, patch: { status: 'active' } }), t`Ordine di lavoro riaperto`)
  const archive = () => run(() => trpcClient.workOrders.archive.mutate({ key: wo._key }), t`Ordine di lavoro archiviato`)
  const restore = () => run(() => trpcClient.workOrders.restore.mutate({ key: wo._key }), t`Ordine di lavoro ripristinato in fondo alla coda`)

  return (
    <Stack gap="sm" mb="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Group gap="xs" align="center">
            <Title order={2} data-testid="wo-code">
              {wo.code}
            </Title>
            <Badge variant="outline" color="gray" size="lg" data-testid="wo-revision">
              <Trans>Rev {wo.revision.number}</Trans>
            </Badge>
            <StatusBadge status={wo.status} />
            <TimingBadge late={wo.late} status={wo.status} dueBy={wo.due_by} />
            <CriticalMarker critical={wo.critical} criticalJob={wo.has_critical_job} />
          </Group>
          <Text size="sm" mt={2}>
            <Text span fw={600}>
              {wo.product_code}
            </Text>{' '}
            <Text span c="dimmed">
              {wo.product_description}
            </Text>
          </Text>
        </div>
        {!archived && (
          <Group gap="xs">
            {wo.newer_revision !== null && (
              <Button variant="light" color="teal" onClick={() => setRevisionOpen(true)} data-testid="revision-update">
                <Trans>Aggiorna alla rev {wo.newer_revision}</Trans>
              </Button>
            )}
            <Tooltip label={t`Riapri l'ordine di lavoro per cambiarne la quantità`} disabled={wo.status !== 'closed'}>
              <Button variant="light" onClick={openQuantity} disabled={wo.status === 'closed'}>
                <Trans>Cambia quantità</Trans>
              </Button>
            </Tooltip>
            {wo.status === 'active' && (
              <Button variant="default" onClick={() => setConfirm('close')}>
                <Trans>Chiudi</Trans>
              </Button>
            )}
            {wo.status === 'closed' && (
              <Button variant="default" onClick={reopen} loading={busy}>
                <Trans>Riapri</Trans>
              </Button>
            )}
            <Tooltip label={t`Si possono archiviare solo gli ordini completati o chiusi`} disabled={finished}>
              <Button variant="default" onClick={() => setConfirm('archive')} disabled={!finished}>
                <Trans>Archivia</Trans>
              </Button>
            </Tooltip>
          </Group>
        )}
      </Group>

      {archived && (
        <Alert color="gray" variant="light">
          <Group justify="space-between">
            <Text size="sm">
              <Trans>Archiviato il {formatDate(wo.archived_at)}: l'ordine di lavoro è in sola lettura.</Trans>
            </Text>
            <Button size="xs" variant="light" onClick={restore} loading={busy}>
              <Trans>Ripristina</Trans>
            </Button>
          </Group>
        </Alert>
      )}

      <Paper withBorder radius="md" p="sm">
        <SimpleGrid cols={{ base: 3, sm: 7 }} spacing="sm">
          <Figure label={<Trans>Pianificati</Trans>} value={wo.planned_qt} testId="wo-planned" />
          <Figure label={<Trans>Completati</Trans>} value={wo.completed_qt} />
          <Figure label={<Trans>Residui</Trans>} value={wo.remaining_qt} />
          <Figure
            label={<Trans>Avanzamento</Trans>}
            value={
              <Group gap={6} wrap="nowrap">
                <Progress value={wo.progress} color={wo.progress >= 100 ? 'green' : 'blue'} size="lg" w={70} />
                <Text size="sm">{wo.progress}%</Text>
              </Group>
            }
          />
          <Figure label={<Trans>Inizio da</Trans>} value={wo.start_from ?? '—'} />
          <Figure label={<Trans>Consegna entro</Trans>} value={wo.due_by ?? '—'} />
          <Figure label={<Trans>Linea</Trans>} value={wo.line || '—'} />
        </SimpleGrid>
      </Paper>

      {revisionOpen && wo.newer_revision !== null && (
        <RevisionUpdateDialog wo={wo} to={wo.newer_revision} onClose={() => setRevisionOpen(false)} onDone={invalidateWorkOrders} />
      )}
      {quantityOpen && <QuantityDialog wo={wo} onClose={() => setQuantityOpen(false)} />}

      <Modal opened={confirm === 'close'} onClose={() => setConfirm(null)} title={t`Chiudere ${wo.code}?`} centered>
        <Text size="sm">
          <Trans>I job ancora aperti verranno chiusi e spariranno dalle code degli operatori. L'ordine di lavoro potrà essere riaperto.</Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirm(null)}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color="red" onClick={close} loading={busy}>
            <Trans>Chiudi l'ordine</Trans>
          </Button>
        </Group>
      </Modal>
      <Modal opened={confirm === 'archive'} onClose={() => setConfirm(null)} title={t`Archiviare ${wo.code}?`} centered>
        <Text size="sm">
          <Trans>L'ordine di lavoro lascia la coda e l'elenco attivo; resta consultabile e ripristinabile dall'archivio.</Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirm(null)}>
            <Trans>Annulla</Trans>
          </Button>
          <Button onClick={archive} loading={busy}>
            <Trans>Archivia</Trans>
          </Button>
        </Group>
      </Modal>
    </Stack>
  )
}

function Figure({ label, value, testId }: { label: ReactNode; value: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={600} component="div" data-testid={testId}>
        {value}
      </Text>
    </div>
  )
}
