import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Box, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useBlocker, useNavigate } from '@tanstack/react-router'
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { FieldDefinition, FormDataEntry, FormValue, StepData, StepDefinition } from '../../../../../../src/domains/execution/schemas'
import { BatchSerialsPanel } from '../../../../../components/operator/BatchSerialsPanel'
import { FormFieldInput } from '../../../../../components/operator/FormFieldInput'
import { MediaView } from '../../../../../components/operator/MediaView'
import { type Draft, formData, missingMandatory, notDates, notNumbers, notTimes, sameForm, savedDraft } from '../../../../../components/operator/step-form-values'
import { manifestValues, SignatureDialog } from '../../../../../components/operator/SignatureDialog'
import { StepList, type StepItem } from '../../../../../components/operator/StepList'
import { type Keepable, useWorkSession } from '../../../../../components/operator/work-session-context'
import { offlineQueue, useOfflineQueue } from '../../../../../offline/queue'
import { auth } from '../../../../../lib/auth-store'
import { useJobRuntime } from '../../../../../lib/heartbeat'
import { errorMessage } from '../../../../../lib/error-messages'
import { SIGNATURE_MEANING_LABELS } from '../../../../../lib/library-labels'
import { notifyAlert, notifySuccess } from '../../../../../lib/notify'
import { BACKGROUND, trpc, trpcClient } from '../../../../../lib/trpc'
import { NumberTextInput } from '../../../../../components/NumberTextInput'
import { readNumberText } from '../../../../../../src/i18n/number-text'
import type { SignatureInput } from '../../../../../../src/domains/signatures/schemas'

/**
 * The steps of the open batch (the job's step_sequence): instructions to read and confirm,
 * forms to fill (mandatory fields first). step_check asks a confirmation per step, and
 * step_check_force_order keeps later steps locked until the earlier ones are done; without
 * step_check the whole batch completes at once. A form with unsaved changes is in edit mode:
 * switching step (or tab) is refused with "save or cancel the changes first". Answers stay
 * editable until the batch completes (STEP_EDITED). With traceability level complete the serial
 * step (the batch's last) shows the pieces' serials to declare (BatchSerialsPanel); unsaved scans
 * are edit mode too, and the server refuses that step until every piece is declared.
 */
export const Route = createFileRoute('/app/operator/job/$jobKey/steps')({
  component: StepsTab,
})

function StepsTab() {
  const { view } = useWorkSession()
  if (!view.batch) return <NoBatch />
  return <BatchSteps key={view.batch._key} />
}

// ---------------------------------------------------------------------------------------------

function BatchSteps() {
  const { t, i18n } = useLingui()
  const { view, canWork, busy, act } = useWorkSession()
  const batch = view.batch!
  const params = view.phase.parameters
  const defs = new Map(view.steps.map((s) => [s._key, s]))
  const ordered = [...batch.step_data].sort((a, b) => a.position - b.position)
  const firstPending = ordered.findIndex((s) => !s.done)
  // Serials of the batch (level complete): shown on the serial step; unsaved scans block like a form.
  const serials = useQuery(trpc.execution.batchSerials.queryOptions({ batch_key: batch._key }, { trpc: BACKGROUND }))
  const serialStep = serials.data?.required ? serials.data.serial_step_key : null
  const items: StepItem[] = ordered.map((s, index) => {
    const def = defs.get(s._key)
    return {
      _key: s._key,
      index,
      title: def?.title ?? '',
      type: s.type,
      done: s.done,
      locked: params.step_check && params.step_check_force_order && !s.done && firstPending >= 0 && index > firstPending,
      mandatoryMissing: !!def && missingMandatory(def.fields, savedDraft(s)).length > 0,
      serialsMissing: s._key === serialStep && !serials.data?.complete,
    }
  })

  const [selected, setSelected] = useState<string | null>(() => ordered[Math.max(0, firstPending)]?._key ?? null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [showErrors, setShowErrors] = useState(false)
  const [editAlert, setEditAlert] = useState(false)
  // Date fields holding text that is not a date: their value is still the last date read, so
  // the text lives only in the field; it makes the form edited and keeps it from being saved.
  const [unreadableDates, setUnreadableDates] = useState<ReadonlySet<string>>(new Set())
  // Bumped by "Annulla" so the fields start again from the saved values, typed text included.
  const [formRevision, setFormRevision] = useState(0)

  const step = ordered.find((s) => s._key === selected) ?? ordered[0]
  const def = step ? defs.get(step._key) : undefined
  const fields = def?.fields ?? []
  const saved = savedDraft(step)
  const values = draft ?? saved
  const formDirty = (draft !== null && !sameForm(fields, draft, saved)) || unreadableDates.size > 0
  const editable = canWork && batch.status === 'open'
  const [serialsDirty, setSerialsDirty] = useState(false)
  const onSerialsDirty = useCallback((d: boolean) => setSerialsDirty(d), [])
  const dirty = formDirty || serialsDirty

  // Edit mode blocks leaving the steps (another tab, another screen) until saved or cancelled.
  const dirtyRef = useRef(dirty)
  dirtyRef.current = dirty
  const refuseWhileEditing = () => {
    setEditAlert(true)
    notifyAlert(t`Salva o annulla prima le modifiche`)
  }
  useBlocker({
    shouldBlockFn: () => {
      if (!dirtyRef.current || auth.getState().status !== 'active') return false
      refuseWhileEditing()
      return true
    },
    enableBeforeUnload: () => dirtyRef.current,
  })
  useEffect(() => {
    if (!dirty) setEditAlert(false)
  }, [dirty])

  function select(key: string) {
    if (key === step?._key) return
    if (dirty) return refuseWhileEditing()
    setSelected(key)
    setDraft(null)
    setShowErrors(false)
  }

  /** After a step completes: the next step not done, in order after this one (else the first not done). */
  function selectNext(from: StepData[], current: string) {
    const sorted = [...from].sort((a, b) => a.position - b.position)
    const at = sorted.findIndex((s) => s._key === current)
    const next = sorted.slice(at + 1).find((s) => !s.done) ?? sorted.find((s) => !s.done)
    if (next) setSelected(next._key)
  }

  /** A field holding text it cannot read (not a number, a date, a time) keeps the form from being sent. */
  function refuseUnreadable() {
    if (notNumbers(fields, values).length > 0) {
      setShowErrors(true)
      notifyAlert(t`Correggi i campi numerici segnati`)
      return true
    }
    if (unreadableDates.size > 0 || notDates(fields, values).length > 0 || notTimes(fields, values).length > 0) {
      setShowErrors(true)
      notifyAlert(t`Correggi le date e le ore segnate`)
      return true
    }
    return false
  }

  function markUnreadableDate(fieldKey: string, unreadable: boolean) {
    setUnreadableDates((keys) => {
      if (keys.has(fieldKey) === unreadable) return keys
      const next = new Set(keys)
      if (unreadable) next.add(fieldKey)
      else next.delete(fieldKey)
      return next
    })
  }

  async function save() {
    if (!step || refuseUnreadable()) return
    if (step.done && missingMandatory(fields, values).length) {
      setShowErrors(true)
      notifyAlert(t`Compila tutti i campi obbligatori`)
      return
    }
    const input = { batch_key: batch._key, step_key: step._key, form_data: formData(fields, values) }
    const out = await act(`save-step:${batch._key}:${step._key}`, (idempotency_key) => trpcClient.execution.saveStep.mutate({ ...input, idempotency_key }), {
      keepable: { write: { kind: 'save-step', input }, label: { step_title: def?.title, batch_number: batch.number } },
    })
    if (out) {
      setDraft(null)
      setShowErrors(false)
      notifySuccess(offlineQueue.holdsWrites() ? t`Modifiche salvate sul dispositivo: vengono inviate appena il server risponde` : t`Modifiche salvate`)
    }
  }

  async function confirm() {
    if (!step || refuseUnreadable()) return
    if (serialsDirty) return refuseWhileEditing()
    const isForm = fields.length > 0
    if (isForm && missingMandatory(fields, values).length) {
      setShowErrors(true)
      notifyAlert(t`Compila tutti i campi obbligatori`)
      return
    }
    if (def?.signature) {
      setSigning({ stepKey: step._key, error: null })
      return
    }
    await sendCompletion()
  }

  /** Completes the selected step, signed when its definition asks (the dialog shows a refusal in place). */
  async function sendCompletion(signature?: SignatureInput) {
    if (!step) return
    const isForm = fields.length > 0
    const input = { batch_key: batch._key, step_key: step._key, ...(isForm ? { form_data: formData(fields, values) } : {}) }
    const out = await act(
      `complete-step:${batch._key}:${step._key}`,
      (idempotency_key) => trpcClient.execution.completeStep.mutate({ ...input, ...(signature ? { signature } : {}), idempotency_key }),
      // A signature is checked by the server as it is given: a signed step is never kept offline.
      signature
        ? { onRefused: (err) => setSigning({ stepKey: step._key, error: errorMessage(err) }) }
        : { keepable: { write: { kind: 'complete-step', input }, label: { step_title: def?.title, batch_number: batch.number } } },
    )
    if (!out) {
      if (isForm && !signature) setShowErrors(true)
      return
    }
    setSigning(null)
    setDraft(null)
    setShowErrors(false)
    if (out.next === 'continue' && out.batch?._key === batch._key) selectNext(out.batch.step_data, step._key)
  }

  function cancelEdit() {
    setDraft(null)
    setShowErrors(false)
    setUnreadableDates(new Set())
    setFormRevision((n) => n + 1)
  }

  const [signing, setSigning] = useState<{ stepKey: string; error: string | null } | null>(null)
  const [scrapText, setScrapText] = useState('')
  async function completeBatch() {
    if (dirty) return refuseWhileEditing()
    // Scrap among the batch's pieces (reports: OEE quality); empty = none.
    const scrap = readNumberText(scrapText, { min: 0, max: batch.qt_total, integer: true })
    if (!scrap.ok) return
    const input = { batch_key: batch._key, ...(scrap.value ? { scrapped_qt: scrap.value } : {}) }
    await act(`complete-batch:${batch._key}`, (idempotency_key) => trpcClient.execution.completeBatch.mutate({ ...input, idempotency_key }), {
      keepable: { write: { kind: 'complete-batch', input }, label: { batch_number: batch.number } },
    })
    setScrapText('')
  }

  const stepCheck = params.step_check
  const doneCount = ordered.filter((s) => s.done).length
  const showActions = (fields.length > 0 && formDirty) || (stepCheck && !!step && !step.done)
  const actionsRef = useRef<HTMLDivElement>(null)
  useScrollClearOf(actionsRef, showActions)
  return (
    <Grid gap="sm" data-testid="steps-tab">
      <Grid.Col span={4}>
        <StepList steps={items} selected={step?._key ?? null} onSelect={select} />
        {(!stepCheck || ordered.length === 0) && (
          <NumberTextInput
            mt="sm"
            size="md"
            label={<Trans>Pezzi scartati</Trans>}
            value={scrapText}
            onChange={setScrapText}
            min={0}
            max={batch.qt_total}
            integer
            disabled={!editable || !view.can.complete_batch}
            data-testid="batch-scrap"
          />
        )}
        {(!stepCheck || ordered.length === 0) && (
          <Button
            fullWidth
            mt="sm"
            size="xl"
            h={60}
            color="green.8"
            onClick={completeBatch}
            loading={busy}
            disabled={!editable || !view.can.complete_batch}
            data-testid="complete-batch"
          >
            <Trans>Completa lotto</Trans>
          </Button>
        )}
      </Grid.Col>
      <Grid.Col span={8}>
        {!canWork && <WorkHint />}
        {step ? (
          <Paper withBorder p="md" data-testid="step-panel" data-step-key={step._key}>
            <Group justify="space-between" wrap="nowrap" mb={4}>
              <Text size="sm" c="dimmed">
                <Trans>
                  Passo {ordered.indexOf(step) + 1} di {ordered.length}
                </Trans>
                {' · '}
                {step.type === 'form' ? <Trans>Modulo</Trans> : <Trans>Istruzione</Trans>}
                {' · '}
                <Trans>
                  {doneCount} completati
                </Trans>
              </Text>
              <Group gap="xs" wrap="nowrap">
                {def?.signature && (
                  <Badge color="indigo" variant="light" size="lg" data-testid="step-signature-badge">
                    {t`Firma: ${i18n._(SIGNATURE_MEANING_LABELS[def.signature.meaning])}`}
                  </Badge>
                )}
                {step.done && (
                  <Badge color="green.8" size="lg">
                    <Trans>Completato</Trans>
                  </Badge>
                )}
              </Group>
            </Group>
            <Title order={3} mb="sm">
              {def?.title || <Trans>Passo {ordered.indexOf(step) + 1}</Trans>}
            </Title>
            {editAlert && dirty && (
              <Alert color="orange" variant="filled" mb="sm" data-testid="edit-mode-alert">
                <Text fw={700} size="md">
                  <Trans>Salva o annulla prima le modifiche</Trans>
                </Text>
              </Alert>
            )}
            <StepBody def={def} />
            {serials.data?.required && step._key === serialStep && (
              <BatchSerialsPanel batchKey={batch._key} editable={editable} onDirtyChange={onSerialsDirty} />
            )}
            {fields.length > 0 && (
              <Stack gap="md" mt="md">
                {fields.map((f) => (
                  <FormFieldInput
                    key={`${f._key}:${formRevision}`}
                    field={f}
                    value={values[f._key] ?? null}
                    onChange={(v) => setDraft({ ...values, [f._key]: v })}
                    disabled={!editable}
                    error={showErrors && missingMandatory([f], values).length ? t`Campo obbligatorio` : undefined}
                    batchKey={batch._key}
                    onUnreadable={(unreadable) => markUnreadableDate(f._key, unreadable)}
                  />
                ))}
              </Stack>
            )}
            {showActions && (
              <Box
                mt="lg"
                pt="sm"
                pb={4}
                ref={actionsRef}
                // Above the form's own layers (a segmented control paints at z-index 2), below the sticky header.
                style={{ position: 'sticky', bottom: 0, zIndex: 3, background: 'var(--mes-surface-1)', borderTop: '1px solid var(--mantine-color-default-border)' }}
                data-testid="step-actions"
              >
                <Group justify="flex-end" gap="sm">
                  {fields.length > 0 && formDirty && (
                    <>
                      <Button size="lg" h={52} variant="default" onClick={cancelEdit} disabled={busy} data-testid="cancel-edit">
                        <Trans>Annulla</Trans>
                      </Button>
                      <Button size="lg" h={52} variant="light" onClick={save} loading={busy} disabled={!editable} data-testid="save-step">
                        <Trans>Salva</Trans>
                      </Button>
                    </>
                  )}
                  {stepCheck && !step.done && (
                    <Button size="xl" h={56} color="green.8" onClick={confirm} loading={busy} disabled={!editable} data-testid="confirm-step">
                      <Trans>Conferma passo</Trans>
                    </Button>
                  )}
                </Group>
              </Box>
            )}
          </Paper>
        ) : (
          <Paper withBorder p="lg">
            <Text c="dimmed">
              <Trans>Questo job non ha passi: completa il lotto quando è pronto.</Trans>
            </Text>
            {serials.data?.required && <BatchSerialsPanel batchKey={batch._key} editable={editable} onDirtyChange={onSerialsDirty} />}
          </Paper>
        )}
      </Grid.Col>
      {signing && step && def?.signature && signing.stepKey === step._key && (
        <SignatureDialog
          jobKey={view.job._key}
          requirement={def.signature}
          manifest={{
            stepTitle: def.title,
            stepPosition: ordered.indexOf(step) + 1,
            batchNumber: batch.number,
            workOrderCode: view.work_order.code,
            phaseName: view.phase.name,
            values: manifestValues(fields, formData(fields, values)),
          }}
          busy={busy}
          error={signing.error}
          onCancel={() => setSigning(null)}
          onSign={(signature) => void sendCompletion(signature)}
        />
      )}
    </Grid>
  )
}

/**
 * The sticky action bar covers the bottom of the page: the page's scroll padding follows its
 * height, so the browser's own scrolling (a tap, a focus, the next field) stops a field above
 * the bar, never under it; the bar's place at the end of the form keeps the last field reachable.
 */
function useScrollClearOf(ref: RefObject<HTMLElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const bar = ref.current
    if (!shown || !bar) return
    const root = document.documentElement
    const apply = () => {
      root.style.scrollPaddingBottom = `${bar.offsetHeight + 8}px`
    }
    apply()
    const observer = new ResizeObserver(apply)
    observer.observe(bar)
    return () => {
      observer.disconnect()
      root.style.scrollPaddingBottom = ''
    }
  }, [ref, shown])
}

function StepBody({ def }: { def: StepDefinition | undefined }) {
  if (!def) {
    return (
      <Text c="dimmed">
        <Trans>La definizione di questo passo non è più nel processo.</Trans>
      </Text>
    )
  }
  return (
    <Stack gap="sm">
      {def.text.trim() && (
        <Text size="lg" style={{ whiteSpace: 'pre-wrap' }} data-testid="step-text">
          {def.text}
        </Text>
      )}
      {def.media.map((m) => (
        <MediaView key={m._key} item={{ name: m.filename, url: m.url, content_type: m.content_type }} height={320} />
      ))}
    </Stack>
  )
}

/**
 * Offline: why the steps of a running job cannot be worked now (a job not running here has the
 * read-only banner). Only while the connection is down: a job closed offline stays
 * 'paused_offline' once back online, and then it is simply paused (the banner says so).
 */
function WorkHint() {
  const { state } = useWorkSession()
  const { online } = useJobRuntime()
  if (online || (state !== 'offline' && state !== 'paused_offline')) return null
  return (
    <Alert color="red" mb="sm" data-testid="work-hint">
      <Text size="md">
        <Trans>Offline: i passi si potranno confermare quando torna la connessione.</Trans>
      </Text>
    </Alert>
  )
}

// ---------------------------------------------------------------------------------------------

/** No open batch: start, resume, open the next batch, or no material for the next piece. */
function NoBatch() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const { view, canWork, busy, act, jobKey, state } = useWorkSession()
  const { pending } = useOfflineQueue()
  const keptPause = (reason: 'no_material' | 'end_session'): Keepable => ({ write: { kind: 'pause', input: { job_key: jobKey, reason } }, label: {} })
  if (state === 'closed') return null
  if (canWork && pending.some((w) => w.job_key === jobKey)) {
    // The batch was completed on the device: what comes next (a new batch, no material) is the server's to say.
    return (
      <Paper withBorder p="lg" data-testid="batch-kept">
        <Title order={3} mb="sm">
          <Trans>Lotto completato sul dispositivo</Trans>
        </Title>
        <Text size="lg">
          <Trans>Il prossimo lotto si apre quando torna la connessione e le operazioni in attesa sono state inviate.</Trans>
        </Text>
      </Paper>
    )
  }
  if (!canWork) {
    // Read-only (the banner above says why): the steps the job will go through.
    return (
      <Paper withBorder p="lg" data-testid="no-batch">
        <Title order={3} mb="sm">
          <Trans>Passi del job</Trans>
        </Title>
        {view.steps.length === 0 ? (
          <Text c="dimmed">
            <Trans>Questo job non ha passi.</Trans>
          </Text>
        ) : (
          <Stack gap={6} data-testid="steps-preview">
            {view.steps.map((s, i) => (
              <Text key={s._key} size="lg">
                {i + 1}. {s.title || (s.type === 'form' ? t`Modulo` : t`Istruzione`)}
                <Text span c="dimmed" size="sm">
                  {' · '}
                  {s.type === 'form' ? <Trans>Modulo</Trans> : <Trans>Istruzione</Trans>}
                </Text>
              </Text>
            ))}
          </Stack>
        )}
      </Paper>
    )
  }
  if (view.can.new_batch) {
    return (
      <Paper withBorder p="lg" data-testid="await-new-batch">
        <Stack align="flex-start">
          <Title order={3}>
            <Trans>Lotto completato</Trans>
          </Title>
          <Text size="lg">
            <Trans>Materiale disponibile: {view.material.available_qt} pz. Apri il prossimo lotto per continuare.</Trans>
          </Text>
          <Button
            size="xl"
            h={60}
            color="green.8"
            loading={busy}
            onClick={() => act(`new-batch:${jobKey}`, (idempotency_key) => trpcClient.execution.newBatch.mutate({ job_key: jobKey, idempotency_key }))}
            data-testid="new-batch"
          >
            <Trans>Apri nuovo lotto</Trans>
          </Button>
        </Stack>
      </Paper>
    )
  }
  return (
    <Paper withBorder p="lg" data-testid="no-material">
      <Stack align="flex-start">
        <Title order={3}>
          <Trans>Materiale esaurito</Trans>
        </Title>
        <Text size="lg">
          <Trans>Non c'è materiale per il prossimo pezzo.</Trans>
        </Text>
        <Group>
          <Button
            size="xl"
            h={60}
            color="yellow.4"
            c="black"
            loading={busy}
            onClick={() => act(`pause:${jobKey}:no_material`, (k) => trpcClient.execution.pause.mutate({ job_key: jobKey, idempotency_key: k, reason: 'no_material' }), { keepable: keptPause('no_material') })}
          >
            <Trans>Metti in pausa il job</Trans>
          </Button>
          <Button
            size="xl"
            h={60}
            variant="default"
            disabled={busy}
            onClick={async () => {
              const out = await act(
                `pause:${jobKey}:end_session`,
                (k) => trpcClient.execution.pause.mutate({ job_key: jobKey, idempotency_key: k, reason: 'end_session' }),
                { keepable: keptPause('end_session') },
              )
              if (out) void navigate({ to: '/app/operator/select-job', search: { job: 'first' } })
            }}
          >
            <Trans>Termina la sessione</Trans>
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t`Il job riprenderà quando la fase precedente rilascerà altri pezzi.`}
        </Text>
      </Stack>
    </Paper>
  )
}
