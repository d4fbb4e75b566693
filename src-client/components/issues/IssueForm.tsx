import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Input, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX, type IssueCreateInput, type IssueDetail } from '../../../src/domains/issues/schemas'
import { Select } from '../choice-inputs'
import { notifyError, notifySuccess } from '../../lib/notify'
import { trpc, trpcClient } from '../../lib/trpc'
import { AttachmentPicker, useAttachmentQueue } from './AttachmentPicker'
import { invalidateIssues } from './issue-cache'

export type IssueContextInput = Pick<IssueCreateInput, 'job_key' | 'batch_key' | 'step_key' | 'work_order_key' | 'product_key'>

type Props = {
  context: IssueContextInput
  /** Above the fields: where the issue is being opened, or a picker for it. */
  contextField?: ReactNode
  /** Checks the picked context before sending (the picker shows its own error); false stops. */
  validateContext?: () => boolean
  /** Larger controls for the operator's tablet. */
  touch?: boolean
  onDone: (issue: IssueDetail) => void
  onCancel: () => void
}

/** The active issue types, for the type pickers. */
export function useActiveIssueTypes() {
  return useQuery({ ...trpc.issueTypes.list.queryOptions({ active_only: true, sort: 'name' }), staleTime: 60_000 })
}

/**
 * A new issue: type, title, description, critical (the type's default until the user changes
 * it) and attachments. The files go up after the issue exists, one request each; when some are
 * refused the issue stays created and the form offers to retry them or to go on without.
 */
export function IssueForm({ context, contextField, validateContext, touch = false, onDone, onCancel }: Props) {
  const { t } = useLingui()
  const types = useActiveIssueTypes()
  const [typeKey, setTypeKey] = useState<string | null>(null)
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [critical, setCritical] = useState(false)
  const [showErrors, setShowErrors] = useState(false)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<IssueDetail | null>(null)
  const queue = useAttachmentQueue()
  const size = touch ? 'lg' : 'sm'
  const type = types.data?.find((x) => x._key === typeKey)

  function chooseType(key: string | null) {
    setTypeKey(key)
    setCritical(types.data?.find((x) => x._key === key)?.critical ?? false)
  }

  async function submit() {
    const contextOk = created !== null || !validateContext || validateContext()
    if (!typeKey || !title.trim() || !contextOk) {
      setShowErrors(true)
      return
    }
    setBusy(true)
    try {
      let issue = created
      if (!issue) {
        issue = await trpcClient.issues.create.mutate({ ...context, type_key: typeKey, title: title.trim(), description: description.trim() || undefined, critical })
        setCreated(issue)
        notifySuccess(t`Segnalazione ${issue.code} creata`)
      }
      const uploaded = await queue.upload(issue._key)
      void invalidateIssues()
      if (uploaded) onDone(issue)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  const failed = created !== null && queue.files.some((f) => f.status === 'error')
  return (
    <Stack gap="sm" data-testid="issue-form">
      {contextField}
      <Select
        label={t`Tipo`}
        placeholder={t`Scegli il tipo di problema`}
        data={(types.data ?? []).map((x) => ({ value: x._key, label: x.name }))}
        value={typeKey}
        onChange={chooseType}
        searchable
        required
        size={size}
        disabled={created !== null}
        error={showErrors && !typeKey ? t`Scegli un tipo` : undefined}
        nothingFoundMessage={t`Nessun tipo di segnalazione attivo`}
        data-testid="issue-type"
      />
      {type && type.close_within > 0 && (
        <Text size="sm" c="dimmed" mt={-6}>
          <Trans>Se non viene chiusa entro {type.close_within} h diventa critica.</Trans>
        </Text>
      )}
      <TextInput
        label={t`Titolo`}
        placeholder={t`In breve, che cosa succede`}
        value={title}
        onChange={(e) => setTitle(e.currentTarget.value)}
        maxLength={ISSUE_TITLE_MAX}
        required
        size={size}
        disabled={created !== null}
        error={showErrors && !title.trim() ? t`Il titolo è obbligatorio` : undefined}
        data-testid="issue-title"
      />
      <Textarea
        label={t`Descrizione`}
        placeholder={t`Dettagli, pezzi coinvolti, che cosa è stato fatto`}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        maxLength={ISSUE_DESCRIPTION_MAX}
        autosize
        minRows={3}
        maxRows={8}
        size={size}
        disabled={created !== null}
        data-testid="issue-description"
      />
      <Switch
        label={t`Critica`}
        description={context.job_key || context.work_order_key ? t`Il job e l'ordine di lavoro risultano critici finché la segnalazione è aperta` : undefined}
        checked={critical}
        onChange={(e) => setCritical(e.currentTarget.checked)}
        size={touch ? 'lg' : 'md'}
        color="red"
        disabled={created !== null}
        data-testid="issue-critical-switch"
      />
      <Input.Label size={size} mb={-6}>
        <Trans>Allegati</Trans>
      </Input.Label>
      <AttachmentPicker files={queue.files} onAdd={queue.add} onRemove={queue.remove} disabled={busy} touch={touch} />
      {failed && created && (
        <Alert color="orange" data-testid="upload-failed">
          <Trans>La segnalazione {created.code} è stata creata, ma alcuni allegati non sono stati caricati. Riprova o continua senza.</Trans>
        </Alert>
      )}
      <Group justify="flex-end" gap="sm" mt="xs">
        {failed && created ? (
          <Button variant="default" size={size} onClick={() => onDone(created)} disabled={busy}>
            <Trans>Continua senza</Trans>
          </Button>
        ) : (
          <Button variant="default" size={size} onClick={onCancel} disabled={busy || created !== null}>
            <Trans>Annulla</Trans>
          </Button>
        )}
        <Button size={size} onClick={() => void submit()} loading={busy} data-testid="issue-submit">
          {failed ? <Trans>Riprova il caricamento</Trans> : <Trans>Invia segnalazione</Trans>}
        </Button>
      </Group>
    </Stack>
  )
}
