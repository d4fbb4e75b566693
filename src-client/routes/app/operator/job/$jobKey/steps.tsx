import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Box, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { createFileRoute, useBlocker } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { StepData } from '../../../../../../src/domains/execution/schemas'
import { BatchSerialsPanel } from '../../../../../components/operator/BatchSerialsPanel'
import { FormFieldInput } from '../../../../../components/operator/FormFieldInput'
import { type Draft, formData, missingMandatory, notDates, notNumbers, notTimes, sameForm, savedDraft } from '../../../../../components/operator/step-form-values'
import { manifestValues, SignatureDialog } from '../../../../../components/operator/SignatureDialog'
import { StepList, type StepItem } from '../../../../../components/operator/StepList'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { useBatchSerials } from '../../../../../offline/batch-serials'
import { useKeptDraft } from '../../../../../offline/drafts'
import { offlineQueue } from '../../../../../offline/queue'
import { auth } from '../../../../../lib/auth-store'
import { errorMessage } from '../../../../../lib/error-messages'
import { SIGNATURE_MEANING_LABELS } from '../../../../../lib/library-labels'
import { notifyAlert, notifySuccess } from '../../../../../lib/notify'
import { trpcClient } from '../../../../../lib/trpc'
import { useSession } from '../../../../../lib/use-auth'
import type { SignatureInput } from '../../../../../../src/domains/signatures/schemas'
import { BatchCompletion } from './-batch-completion'
import { NoBatch } from './-no-batch'
import { StepBody, useScrollClearOf, WorkHint } from './-step-parts'

/**
 * The steps of the open batch (the job's step_sequence): instructions to read and confirm,
 * forms to fill (mandatory fields first). step_check asks a confirmation per step, and
 * step_check_force_order keeps later steps locked until the earlier ones are done; without
 * step_check the whole batch completes at once. A form with unsaved changes is in edit mode:
 * switching step (or tab) is refused with "save or cancel the changes first". Answers stay
 * editable until the batch completes (STEP_EDITED). With traceability level complete the serial
 * step (the batch's last) shows the pieces' serials to declare (BatchSerialsPanel); unsaved scans
 * are edit mode too, and the server refuses that step until every piece is declared. What is
 * typed and not saved is kept on the device as it is typed (offline/drafts.ts) and shows again
 * when the step does, after a reload or a browser restart too.
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
  const serials = useBatchSerials(batch._key)
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
  const draftDiffers = draft !== null && !sameForm(fields, draft, saved)
  const formDirty = draftDiffers || unreadableDates.size > 0
  const editable = canWork && batch.status === 'open'
  const [serialsDirty, setSerialsDirty] = useState(false)
  const onSerialsDirty = useCallback((d: boolean) => setSerialsDirty(d), [])
  const dirty = formDirty || serialsDirty

  // The draft kept on the device as it is typed; a kept one shows again when its step does.
  const userKey = useSession()?.user_key ?? null
  const draftRef = useRef(draft)
  draftRef.current = draft
  const keptDraft = useKeptDraft({
    userKey,
    jobKey: view.job._key,
    batchKey: batch._key,
    stepKey: step?._key ?? null,
    draft,
    dirty: draftDiffers,
    onRestore: (kept) => {
      if (draftRef.current !== null) return
      setDraft(kept)
      setFormRevision((n) => n + 1)
    },
  })

  // Edit mode blocks leaving the steps (another tab, another screen) until saved or cancelled.
  const dirtyRef = useRef(dirty)
  dirtyRef.current = dirty
  // Closing or reloading the page asks first only for what the device does not keep (unsaved scans, unreadable dates).
  const unloadLosesRef = useRef(dirty)
  unloadLosesRef.current = serialsDirty || unreadableDates.size > 0 || (draftDiffers && !keptDraft.kept)
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
    enableBeforeUnload: () => unloadLosesRef.current,
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
      keptDraft.drop()
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
    keptDraft.drop()
    setDraft(null)
    setShowErrors(false)
    if (out.next === 'continue' && out.batch?._key === batch._key) selectNext(out.batch.step_data, step._key)
  }

  function cancelEdit() {
    keptDraft.drop()
    setDraft(null)
    setShowErrors(false)
    setUnreadableDates(new Set())
    setFormRevision((n) => n + 1)
  }

  const [signing, setSigning] = useState<{ stepKey: string; error: string | null } | null>(null)
  const stepCheck = params.step_check
  const doneCount = ordered.filter((s) => s.done).length
  const showActions = (fields.length > 0 && formDirty) || (stepCheck && !!step && !step.done)
  const actionsRef = useRef<HTMLDivElement>(null)
  useScrollClearOf(actionsRef, showActions)
  return (
    <Grid gap="sm" data-testid="steps-tab">
      <Grid.Col span={4}>
        <StepList steps={items} selected={step?._key ?? null} onSelect={select} />
        {(!stepCheck || ordered.length === 0) && <BatchCompletion editable={editable} dirty={dirty} onRefusedWhileEditing={refuseWhileEditing} />}
      </Grid.Col>
      <Grid.Col span={8}>
        {!canWork && <WorkHint />}
        {step ? (
          <Paper withBorder p="md" data-testid="step-panel" data-step-key={step._key} data-draft-kept={keptDraft.kept}>
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
