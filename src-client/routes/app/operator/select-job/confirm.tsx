import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQueries, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { nextBatchQt } from '../../../../../src/domains/execution/rules'
import type { JobDetail } from '../../../../../src/domains/jobs/schemas'
import { formatDay, formatDuration } from '../../../../components/operator/format'
import { InterruptionLine } from '../../../../components/operator/interruption'
import { jobRuntime } from '../../../../lib/heartbeat'
import { withIdempotency } from '../../../../lib/idempotency'
import { notifyError } from '../../../../lib/notify'
import { BACKGROUND, queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'
import { selectedKeys, toSearch } from './-queue'

/** The selected jobs before starting (SPEC 2 select-job/confirm); Start opens their work sessions. */
export const Route = createFileRoute('/app/operator/select-job/confirm')({
  component: ConfirmPage,
})

function ConfirmPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const keys = selectedKeys(Route.useSearch())
  // Read again on every visit: a job seen queued a moment ago may be paused or taken since (the
  // browser's back brings this page from the cache).
  const details = useQueries({ queries: keys.map((key) => ({ ...trpc.jobs.get.queryOptions({ key }, { trpc: BACKGROUND }), refetchOnMount: 'always' as const })) })
  const jobs = details.map((d) => d.data).filter((d): d is JobDetail => !!d)
  const [busy, setBusy] = useState(false)
  const back = () => void navigate({ to: '/app/operator/select-job', search: toSearch(keys) })

  async function start() {
    setBusy(true)
    try {
      const sorted = [...keys].sort()
      const result = await withIdempotency(`start:${sorted.join(',')}`, (idempotency_key) => trpcClient.execution.start.mutate({ job_keys: keys, idempotency_key }))
      for (const o of result.jobs) {
        const detail = jobs.find((j) => j._key === o.job._key)
        if (o.job.active) jobRuntime.track(o.job._key, detail?.phase.parameters.max_offline ?? 0)
        // The work session reads its state fresh (no earlier answer from the cache).
        queryClient.removeQueries({ queryKey: trpc.execution.workSession.queryKey({ job_key: o.job._key }) })
      }
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.assignment.queryKey() })
      // The operator's own order decides which job opens first (the server answers in lock order).
      const first = keys.find((k) => result.jobs.some((o) => o.job._key === k)) ?? keys[0]!
      await navigate({ to: '/app/operator/job/$jobKey/steps', params: { jobKey: first } })
    } catch (e) {
      notifyError(e)
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.assignment.queryKey() })
    } finally {
      setBusy(false)
    }
  }

  if (keys.length === 0) {
    return (
      <Stack>
        <Alert color="yellow">
          <Trans>Nessun job selezionato.</Trans>
        </Alert>
        <Button size="lg" onClick={back} w="fit-content">
          <Trans>Torna alla lista</Trans>
        </Button>
      </Stack>
    )
  }
  const resuming = jobs.length > 0 && jobs.every((j) => j.status !== 'queued')
  return (
    <Stack gap="md" data-testid="confirm-jobs">
      <Title order={2}>{keys.length === 1 ? <Trans>Conferma il job</Trans> : <Trans>Conferma {keys.length} job in parallelo</Trans>}</Title>
      {details.some((d) => d.isPending) && <Loader />}
      {details.map((d, i) =>
        d.error ? (
          <Alert key={keys[i]} color="red">
            {t`Job non disponibile`}
          </Alert>
        ) : null,
      )}
      {jobs.map((j) => (
        <ConfirmCard key={j._key} job={j} />
      ))}
      <Group justify="space-between" mt="md">
        <Button size="xl" h={60} variant="default" onClick={back} disabled={busy} data-testid="confirm-back">
          <Trans>Indietro</Trans>
        </Button>
        <Button size="xl" h={60} miw={240} color="green.8" onClick={start} loading={busy} disabled={jobs.length !== keys.length} data-testid="start-jobs">
          {resuming ? <Trans>Riprendi</Trans> : <Trans>Avvia</Trans>}
        </Button>
      </Group>
    </Stack>
  )
}

function ConfirmCard({ job }: { job: JobDetail }) {
  const p = job.phase.parameters
  const batch = job.active_batch_key ? null : nextBatchQt(p.production_batch_qt, job, job.material)
  return (
    <Paper withBorder p="md" style={{ borderLeft: `8px solid ${job.critical ? 'var(--mantine-color-red-8)' : 'var(--mantine-color-green-8)'}` }}>
      <Title order={3}>
        {job.product.code}
        {job.product.description && (
          <Text span c="dimmed" fw={400} size="lg">
            {' · '}
            {job.product.description}
          </Text>
        )}
      </Title>
      <Text size="lg">
        <Trans>
          OdL <b>{job.work_order.code}</b> · Fase {job.phase.position}: <b>{job.phase.name}</b>
        </Trans>
      </Text>
      {job.status === 'paused' && <StoppedBy jobKey={job._key} />}
      <SimpleGrid cols={4} mt="sm" spacing="sm">
        <Fact label={<Trans>Quantità</Trans>} value={`${job.completed_qt} / ${job.quantity}`} />
        <Fact label={<Trans>Disponibili</Trans>} value={String(job.available_qt)} />
        <Fact
          label={<Trans>Prossimo lotto</Trans>}
          value={job.active_batch_key ? <Trans>lotto aperto ({job.active_qt} pz)</Trans> : batch ? <Trans>{batch} pz</Trans> : '—'}
        />
        <Fact
          label={<Trans>Tempo standard</Trans>}
          value={p.std_processing_time > 0 ? <Trans>{formatDuration(p.std_processing_time * 1000)} / pz</Trans> : '—'}
        />
      </SimpleGrid>
      {(job.work_order.due_by || job.critical) && (
        <Text size="sm" c={job.critical ? 'red.8' : 'dimmed'} mt="xs">
          {job.critical && (
            <b>
              <Trans>CRITICO</Trans>
              {' · '}
            </b>
          )}
          {job.work_order.due_by && <Trans>Consegna {formatDay(job.work_order.due_by)}</Trans>}
        </Text>
      )}
    </Paper>
  )
}

function Fact({ label, value }: { label: React.ReactNode; value: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </div>
  )
}

/**
 * A job production paused (or gave to this operator) says who and why here too: "Riprendi" on this
 * page is the operator's confirmation, so it is read before it (issue 26).
 */
function StoppedBy({ jobKey }: { jobKey: string }) {
  const me = useSession()?.user_key ?? ''
  const view = useQuery({ ...trpc.execution.workSession.queryOptions({ job_key: jobKey }, { trpc: BACKGROUND }), refetchOnMount: 'always' })
  const interruption = view.data?.interruption
  if (!interruption) return null
  return (
    <Alert color="yellow" mt="sm" p="sm">
      <InterruptionLine interruption={interruption} me={me} />
    </Alert>
  )
}
