import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Box, Button, Center, Group, Loader, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, Outlet, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ExecutionOutcome, Interruption, WorkSessionView } from '../../../../../../src/domains/execution/schemas'
import { MAX_QUEUE_JOBS } from '../../../../../../src/domains/jobs/schemas'
import { IssuesTabLabel } from '../../../../../components/issues/IssuesTabLabel'
import { UnreadTabLabel } from '../../../../../components/messages/unread'
import { type DisplayState, displayState } from '../../../../../components/operator/job-state'
import { NoMaterialDialog, RedirectingOverlay } from '../../../../../components/operator/dialogs'
import { OperatorTabs } from '../../../../../components/operator/OperatorTabs'
import { InterruptionLine, ResumeConfirmDialog } from '../../../../../components/operator/interruption'
import { ReadOnlyBanner } from '../../../../../components/operator/ReadOnlyBanner'
import { RuntimeNotices } from '../../../../../components/operator/RuntimeNotices'
import { WorkSessionContext, type WorkSession } from '../../../../../components/operator/work-session-context'
import { reportSerialRefusal } from '../../../../../components/operator/serial-refusals'
import { WorkSessionHeader } from '../../../../../components/operator/WorkSessionHeader'
import { isUnreachable, toApiError } from '../../../../../lib/api-error'
import { auth } from '../../../../../lib/auth-store'
import { errorMessage } from '../../../../../lib/error-messages'
import { invalidateJob, jobRuntime, useJobRuntime } from '../../../../../lib/heartbeat'
import { FLOOR_TOPICS, useLive } from '../../../../../lib/live'
import { forgetIntent, withIdempotency } from '../../../../../lib/idempotency'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { BACKGROUND, queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { useSession } from '../../../../../lib/use-auth'
import { JobPrints } from '../../../../../components/printing/JobPrints'
import { keptOutcome, withPending } from '../../../../../offline/overlay'
import { offlineQueue, useOfflineQueue } from '../../../../../offline/queue'

/**
 * The work session (SPEC 2 operator/job/:jobKey; issue 6): header with the job's state, batch
 * progress, timer and start / pause / resume; tabs below. The layout owns the job's runtime:
 * the heartbeat follows the job's running state, every write goes through `act` (idempotency
 * key, refusal toast, outcome), and leaving the work session pauses the jobs running here.
 * A job not running here (paused, not ready, another operator's) opens read-only: a banner says
 * why it cannot start, Start/Resume shows only when the server says it can.
 */
export const Route = createFileRoute('/app/operator/job/$jobKey')({
  component: WorkSessionLayout,
})

/** Pages of the work session: moving between them (or between running jobs) is not leaving it. */
const WORK_SESSION_PATH = '/app/operator/job/'
const REDIRECT_DELAY_MS = 1800
const POLL_MS = 20_000

function WorkSessionLayout() {
  const { jobKey } = Route.useParams()
  const session = useSession()
  const query = useQuery({
    ...trpc.execution.workSession.queryOptions({ job_key: jobKey }, { trpc: BACKGROUND }),
    refetchInterval: POLL_MS,
  })
  // Production reassigning or pausing this job, or a critical mark on it or its work order, shows at once.
  useLive(FLOOR_TOPICS, (e) => (e.topic !== 'jobs' || e.keys.job === jobKey ? [trpc.execution.workSession.queryKey({ job_key: jobKey })] : []))

  // Leaving the work session pauses the jobs running here (SPEC 4). A sign-out pauses on the
  // server (DELETE session) and a 401 skips the pause: only a signed-in user's navigation counts.
  useEffect(
    () => () => {
      if (window.location.pathname.startsWith(WORK_SESSION_PATH)) return
      const status = auth.getState().status
      if (status !== 'active' && status !== 'locked') return
      void jobRuntime.pauseAll('leave_page')
    },
    [],
  )

  if (query.isPending) {
    return (
      <Center h={300}>
        <Loader />
      </Center>
    )
  }
  // The work session stays on screen while the server cannot be reached (what is typed stays,
  // the banner says why); only a real refusal, or no data at all, replaces it.
  if (query.isError && (query.data === undefined || !isUnreachable(toApiError(query.error)))) {
    const error = toApiError(query.error)
    // Production gave the job to someone else: the refusal says by whom and why (issue 26).
    const away = error.code === 'JOB_NOT_YOURS' ? (error.extra.interruption as Interruption | undefined) : undefined
    return (
      <Stack maw={640}>
        <Alert color={away ? 'yellow' : 'red'} title={away ? <Trans>Job riassegnato</Trans> : <Trans>Impossibile aprire il job</Trans>} data-testid="job-unavailable" data-code={error.code}>
          {away ? <InterruptionLine interruption={away} me={session?.user_key ?? ''} /> : errorMessage(error)}
        </Alert>
        <Group>
          <Button renderRoot={(props) => <Link {...props} to="/app/operator/select-job" search={{ job: 'first' }} />} size="lg">
            <Trans>Torna alla lista dei job</Trans>
          </Button>
        </Group>
      </Stack>
    )
  }
  return <WithKeptWrites jobKey={jobKey} view={query.data} receivedAt={query.dataUpdatedAt} />
}

/** The server's view with the writes still kept on this device laid over it (offline/overlay.ts). */
function WithKeptWrites({ jobKey, view, receivedAt }: { jobKey: string; view: WorkSessionView; receivedAt: number }) {
  const { pending } = useOfflineQueue()
  const shown = useMemo(() => withPending(view, pending, receivedAt), [view, pending, receivedAt])
  return <WorkSessionScreen jobKey={jobKey} view={shown} receivedAt={receivedAt} />
}

function WorkSessionScreen({ jobKey, view, receivedAt }: { jobKey: string; view: WorkSessionView; receivedAt: number }) {
  const { t } = useLingui()
  const session = useSession()
  const me = session?.user_key ?? ''
  const navigate = useNavigate()
  const runtime = useJobRuntime()
  const [busy, setBusy] = useState(false)
  const [noMaterial, setNoMaterial] = useState(false)
  const [confirmResume, setConfirmResume] = useState(false)
  const maxOffline = view.phase.parameters.max_offline
  const state: DisplayState = displayState(jobKey, view.job, runtime)
  const mine = view.job.operator_key === me

  // The heartbeat follows what the server says (each new answer), unless the client closed the
  // work session for being offline too long (the server's answer then waits for the way back).
  useEffect(() => {
    if (jobRuntime.getState().closedOffline.has(jobKey)) return
    if (view.job.active && mine) jobRuntime.track(jobKey, maxOffline)
    else jobRuntime.untrack(jobKey)
  }, [receivedAt, jobKey, view.job.active, mine, maxOffline])

  // The job closed (its quantity is done, here or elsewhere): 'redirecting' back to the list.
  const closed = view.job.status === 'closed'
  useEffect(() => {
    if (!closed) return
    jobRuntime.untrack(jobKey)
    const id = setTimeout(() => void navigate({ to: '/app/operator/select-job', search: { job: 'first' }, replace: true }), REDIRECT_DELAY_MS)
    return () => clearTimeout(id)
  }, [closed, jobKey, navigate])

  const applyOutcome = useCallback(
    async (o: ExecutionOutcome) => {
      const key = trpc.execution.workSession.queryKey({ job_key: jobKey })
      await queryClient.cancelQueries({ queryKey: key })
      const sinceFetch = Date.now() - (queryClient.getQueryState(key)?.dataUpdatedAt ?? Date.now())
      queryClient.setQueryData(key, (old) => (old ? patchView(old, o, sinceFetch) : old))
      if (o.job.active && o.job.operator_key === me) jobRuntime.track(jobKey, maxOffline)
      else jobRuntime.untrack(jobKey)
      void invalidateJob(jobKey)
      if (o.next === 'batch_opened' && o.batch) notifySuccess(t`Lotto completato. Aperto il lotto ${o.batch.number} (${o.batch.qt_total} pz)`)
      else if (o.next === 'await_new_batch') notifySuccess(t`Lotto completato`)
      else if (o.next === 'no_material') setNoMaterial(true)
    },
    [jobKey, me, maxOffline, t],
  )

  const act = useCallback<WorkSession['act']>(
    async (intent, run, options) => {
      const keepable = options?.keepable
      setBusy(true)
      // Kept on the device: the screen goes on from the view with the write laid over it.
      const keep = async (key?: string) => {
        const kept = await offlineQueue.keep(keepable!.write, jobKey, keepable!.label, key)
        return keptOutcome(withPending(view, [kept], receivedAt))
      }
      let sentWith: string | undefined
      try {
        if (keepable && (!jobRuntime.getState().online || offlineQueue.holdsWrites())) return await keep()
        const outcome = await withIdempotency(intent, (key) => {
          sentWith = key
          return run(key)
        })
        await applyOutcome(outcome)
        return outcome
      } catch (e) {
        const err = toApiError(e)
        if (keepable && sentWith && isUnreachable(err)) {
          // Maybe applied, maybe not: kept with the same key, the server applies it once either way.
          forgetIntent(intent)
          jobRuntime.reportUnreachable(err)
          try {
            return await keep(sentWith)
          } catch (kept) {
            notifyError(kept)
            return null
          }
        }
        reportSerialRefusal(err)
        if (options?.onRefused && !isUnreachable(err)) options.onRefused(err)
        else notifyError(e)
        // Unreachable (network, database): the banner shows at once, the probe notices the way back.
        if (isUnreachable(err)) jobRuntime.reportUnreachable(err)
        // A refusal often means the job changed elsewhere (closed, paused, step done on another device).
        else void invalidateJob(jobKey)
        return null
      } finally {
        setBusy(false)
      }
    },
    [applyOutcome, jobKey, view, receivedAt],
  )

  const start = () =>
    act(`start:${jobKey}`, async (idempotency_key) =>
      view.job.status === 'queued'
        ? (await trpcClient.execution.start.mutate({ job_keys: [jobKey], idempotency_key })).jobs[0]!
        : trpcClient.execution.resume.mutate({ job_key: jobKey, idempotency_key }),
    )
  // Resuming a job production paused (or gave to this operator) asks first, naming who and why.
  const askFirst = view.job.status === 'paused' && view.interruption !== null
  const pause = (reason: 'user' | 'no_material' | 'end_session') =>
    act(`pause:${jobKey}:${reason}`, (idempotency_key) => trpcClient.execution.pause.mutate({ job_key: jobKey, idempotency_key, reason }), {
      keepable: { write: { kind: 'pause', input: { job_key: jobKey, reason } }, label: {} },
    })

  // Not running here for this operator (paused, not ready, someone else's): read, never work.
  const readOnly = !(view.job.active && mine)
  const ws = useMemo<WorkSession>(
    () => ({ jobKey, view, state, busy, act, canWork: (state === 'running' || state === 'offline') && mine, readOnly }),
    [jobKey, view, state, busy, act, mine, readOnly],
  )

  const base = `/app/operator/job/${jobKey}`
  return (
    <WorkSessionContext.Provider value={ws}>
      {/* The state, progress and start/pause stay in sight while a long form scrolls. */}
      <Box pos="sticky" top="var(--app-shell-header-height, 60px)" pt={4} pb="xs" style={{ zIndex: 50, background: 'var(--mantine-color-body)' }}>
        <RuntimeNotices jobKey={jobKey} runtime={runtime} maxOfflineS={maxOffline} />
        <WorkSessionHeader
          view={view}
          state={state}
          offline={!runtime.online}
          busy={busy}
          readOnly={readOnly}
          receivedAt={receivedAt}
          onStart={askFirst ? () => setConfirmResume(true) : start}
          onPause={() => void pause('user')}
        />
      </Box>
      {readOnly && <ReadOnlyBanner view={view} me={me} />}
      <OtherRunningJobs jobKey={jobKey} running={runtime.running} />
      <JobPrints jobKey={jobKey} phaseKey={view.phase._key} batchKey={view.batch?._key} />
      <OperatorTabs
        tabs={[
          { to: `${base}/steps`, label: <Trans>Passi</Trans>, testId: 'tab-steps' },
          { to: `${base}/docs`, label: <Trans>Documenti</Trans>, testId: 'tab-docs' },
          { to: `${base}/bom`, label: <Trans>Distinta base</Trans>, testId: 'tab-bom' },
          { to: `${base}/notes`, label: <Trans>Note</Trans>, testId: 'tab-notes' },
          { to: `${base}/issues`, label: <IssuesTabLabel scope={{ job_key: jobKey }} />, testId: 'tab-issues' },
          {
            to: `${base}/messages`,
            label: (
              <UnreadTabLabel contexts={[{ context_type: 'job', context_key: jobKey }]}>
                <Trans>Messaggi</Trans>
              </UnreadTabLabel>
            ),
            testId: 'tab-messages',
          },
          { to: `${base}/process`, label: <Trans>Processo</Trans>, testId: 'tab-process' },
        ]}
      />
      <Outlet />
      <NoMaterialDialog
        opened={noMaterial && !closed}
        busy={busy}
        onPause={async () => {
          if (await pause('no_material')) setNoMaterial(false)
        }}
        onEndSession={async () => {
          if (!(await pause('end_session'))) return
          setNoMaterial(false)
          void navigate({ to: '/app/operator/select-job', search: { job: 'first' } })
        }}
      />
      <ResumeConfirmDialog
        interruption={view.interruption}
        me={me}
        opened={confirmResume && askFirst}
        onCancel={() => setConfirmResume(false)}
        onConfirm={() => {
          setConfirmResume(false)
          void start()
        }}
      />
      {closed && <RedirectingOverlay />}
    </WorkSessionContext.Provider>
  )
}

/**
 * The view right after an action, from its outcome (the full view is read again at once): the
 * job, its batch and what the operator may do next (the server's answer carries it).
 */
function patchView(old: WorkSessionView, o: ExecutionOutcome, sinceFetch: number): WorkSessionView {
  const job = { ...old.job, ...o.job }
  const wasRunning = old.job.active && old.timer.session_started_at !== null
  return {
    ...old,
    job,
    timer: {
      ...old.timer,
      // Paused or just started: the closed sessions' time; still running: the time kept ticking.
      elapsed_ms: job.active && wasRunning ? old.timer.elapsed_ms + sinceFetch : o.job.time_spent_ms,
      session_started_at: job.active ? (old.timer.session_started_at ?? Date.now()) : null,
    },
    batch: o.batch,
    material: { ...old.material, available_qt: o.job.available_qt },
    can: o.can,
    // The operator acted on the job: whatever production did before is superseded.
    interruption: null,
  }
}

/** Parallel jobs (parallel_job_allowed): the other jobs running here, one tap away. */
function OtherRunningJobs({ jobKey, running }: { jobKey: string; running: ReadonlySet<string> }) {
  const session = useSession()
  const others = [...running].filter((k) => k !== jobKey)
  const { data } = useQuery({
    ...trpc.jobs.assignment.queryOptions({ user_key: session?.user_key, limit: MAX_QUEUE_JOBS, unassigned_limit: 0 }, { trpc: BACKGROUND }),
    enabled: others.length > 0 && !!session,
  })
  if (others.length === 0) return null
  const rows = data?.assigned_jobs_by_operator.flatMap((q) => q.jobs) ?? []
  return (
    <Group gap="xs" mb="xs" data-testid="other-running-jobs">
      <Text size="sm" c="dimmed">
        <Trans>Altri job in corso:</Trans>
      </Text>
      {others.map((k) => {
        const row = rows.find((r) => r._key === k)
        return (
          <Button
            key={k}
            renderRoot={(props) => <Link {...props} to="/app/operator/job/$jobKey/steps" params={{ jobKey: k }} />}
            variant="light"
            color="green"
            size="md"
          >
            {row ? `${row.work_order_code} · ${row.phase_name}` : k.slice(0, 8)}
          </Button>
        )
      })}
    </Group>
  )
}
