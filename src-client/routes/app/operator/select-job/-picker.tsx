import { Trans } from '@lingui/react/macro'
import { Affix, Alert, Box, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { JobRow } from '../../../../../src/domains/jobs/schemas'
import { type CardMode, JobCard } from '../../../../components/operator/JobCard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import type { StartBlocker } from '../../../../../src/domains/execution/rules'
import { StartBlockedReason } from '../../../../components/operator/ReadOnlyBanner'
import { firstStartable, mayRunTogether, type MoreJobs, type SelectSearch, selectedKeys, startBlockerOf, toSearch, useOperatorJobs } from './-queue'

/** A list of the screen; `more`: its next page can be loaded ("Mostra altri"). */
export type Section = { title?: ReactNode; jobs: JobRow[]; empty?: ReactNode; more?: MoreJobs; testId?: string }

/**
 * Job lists with selection: a tap selects a job that can start now (the start rule, against the
 * jobs already running; one at a time, or several where parallel_job_allowed holds for all of
 * them); a running job opens its work session; a job that cannot start opens it read-only
 * (the banner says why; "Consulta" does that for a job that can start). "Next" shows the selection before starting (`confirm`).
 */
export function JobPicker({ sections, search, from }: { sections: (jobs: ReturnType<typeof useOperatorJobs>) => Section[]; search: SelectSearch; from: 'queue' | 'all' }) {
  const navigate = useNavigate()
  const jobs = useOperatorJobs()
  const listed = sections(jobs)
  const all = listed.flatMap((s) => s.jobs)
  const running = [...jobs.queue, ...jobs.unassigned].filter((j) => j.active && j.operator_key === jobs.me)
  // job=first: the first job of the queue that can start now (beside the running ones) is
  // preselected (shown as chosen; written into the URL with the next tap), or a notice says why
  // none can. No navigation of its own, so it never fights the user's.
  const first = search.job === 'first' ? firstStartable(jobs.queue, running) : null
  const preselected = first && 'job' in first ? first.job : undefined
  const selected = search.job === 'first' ? (preselected ? [preselected._key] : []) : selectedKeys(search)
  const here = from === 'queue' ? '/app/operator/select-job' : '/app/operator/select-job/all'

  // Jobs no longer startable (closed, taken elsewhere) leave the selection.
  const canStart = (j: JobRow) => startBlockerOf(j, running) === null
  const stillSelected = selected.filter((k) => {
    const row = [...jobs.queue, ...jobs.unassigned].find((j) => j._key === k)
    return !row || canStart(row)
  })

  const setSelection = (keys: string[]) => void navigate({ to: here, search: toSearch(keys), replace: true })

  /** The job's work session: running here, or read-only (nothing starts) for a job that is not running. */
  const open = (job: JobRow) => void navigate({ to: '/app/operator/job/$jobKey/steps', params: { jobKey: job._key } })

  function tap(job: JobRow) {
    if (job.active || !canStart(job)) return open(job)
    if (stillSelected.includes(job._key)) return setSelection(stillSelected.filter((k) => k !== job._key))
    const together = mayRunTogether([...stillSelected, job._key], running, all)
    // Not parallel with the current choice: the tap replaces it (one job at a time).
    if (!together) return setSelection([job._key])
    setSelection([...stillSelected, job._key])
  }

  const mode = (job: JobRow): CardMode =>
    job.active ? 'open' : stillSelected.includes(job._key) ? 'selected' : canStart(job) ? 'selectable' : 'unavailable'

  if (jobs.isPending) {
    return (
      <Center h={240}>
        <Loader />
      </Center>
    )
  }
  if (jobs.error) {
    return <Alert color="red">{errorMessage(toApiError(jobs.error))}</Alert>
  }
  return (
    <>
      <Stack gap="lg" pb={96} data-testid={`job-list-${from}`}>
        {first && 'blocked' in first && <NoneCanStart reason={first.blocked} running={running} />}
        {listed.map((s, i) => (
          <Stack key={i} gap="xs">
            {s.title && <Title order={4}>{s.title}</Title>}
            {s.jobs.length === 0 ? (
              <Paper withBorder p="lg">
                <Text c="dimmed" size="lg">
                  {s.empty ?? <Trans>Nessun job</Trans>}
                </Text>
              </Paper>
            ) : (
              s.jobs.map((j) => {
                const m = mode(j)
                const card = <JobCard key={j._key} job={j} mode={m} parallel={j.parallel_job_allowed} onClick={() => tap(j)} />
                if (m !== 'selectable' && m !== 'selected') return card
                // A tap selects a startable job: this opens it to read without starting it.
                return (
                  <Group key={j._key} wrap="nowrap" gap="xs" align="stretch">
                    <Box style={{ flex: 1, minWidth: 0 }}>{card}</Box>
                    <Button variant="default" size="lg" h="auto" miw={120} onClick={() => open(j)} data-testid="view-job" data-job-key={j._key}>
                      <Trans>Consulta</Trans>
                    </Button>
                  </Group>
                )
              })
            )}
            {s.more && (
              <Button variant="light" size="lg" onClick={s.more.show} loading={s.more.loading} data-testid={`show-more-${s.testId ?? 'jobs'}`}>
                <Trans>Mostra altri</Trans>
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
      <Affix position={{ bottom: 0, right: 0 }} zIndex={150} w="100%">
        <Paper shadow="lg" p="sm" radius={0} withBorder style={{ borderLeft: 0, borderRight: 0, borderBottom: 0 }}>
          <Group justify="flex-end" gap="md" wrap="nowrap">
            <Text size="lg" fw={600} data-testid="selection-count">
              {stillSelected.length === 0 ? (
                <Trans>Tocca un job pronto per selezionarlo</Trans>
              ) : stillSelected.length === 1 ? (
                <Trans>1 job selezionato</Trans>
              ) : (
                <Trans>{stillSelected.length} job selezionati</Trans>
              )}
            </Text>
            <Button
              size="xl"
              h={56}
              miw={180}
              color="green.8"
              disabled={stillSelected.length === 0}
              onClick={() => void navigate({ to: '/app/operator/select-job/confirm', search: toSearch(stillSelected) })}
              data-testid="to-confirm"
            >
              <Trans>Avanti</Trans>
            </Button>
          </Group>
        </Paper>
      </Affix>
    </>
  )
}

/** job=first found no job to preselect: why none of the queue can start now. */
function NoneCanStart({ reason, running }: { reason: StartBlocker; running: JobRow[] }) {
  const other = running[0]
  return (
    <Alert color="yellow" variant="light" data-testid="none-can-start" data-reason={reason} title={<Trans>Nessun job può partire ora</Trans>}>
      <Text size="md">
        {reason === 'parallel_not_allowed' && other ? (
          <Trans>
            È in corso il job {other.work_order_code} · {other.phase_name} e le fasi non consentono il lavoro in parallelo: aprilo e mettilo in pausa per avviarne un altro.
          </Trans>
        ) : reason === 'no_material' ? (
          <Trans>Nessun job della tua coda è pronto: manca il materiale dalla fase precedente. Tocca un job per consultarlo.</Trans>
        ) : (
          <StartBlockedReason reason={reason} />
        )}
      </Text>
    </Alert>
  )
}
