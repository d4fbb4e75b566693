import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core'
import { useState } from 'react'
import { ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX, type IssueDetail } from '../../../src/domains/issues/schemas'
import { Select } from '../choice-inputs'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../lib/trpc'
import { invalidateIssues } from './issue-cache'
import { useActiveIssueTypes } from './IssueForm'

/** Title, description and type of an issue that is not closed; only what changed is sent. */
export function IssueEditDialog({ issue, opened, onClose, touch = false }: { issue: IssueDetail; opened: boolean; onClose: () => void; touch?: boolean }) {
  const { t } = useLingui()
  const types = useActiveIssueTypes()
  const [typeKey, setTypeKey] = useState(issue.type_key)
  const [title, setTitle] = useState(issue.title)
  const [description, setDescription] = useState(issue.description)
  const [busy, setBusy] = useState(false)
  const size = touch ? 'lg' : 'sm'

  // The current type stays offered even if it was deactivated since.
  const options = (types.data ?? []).map((x) => ({ value: x._key, label: x.name }))
  if (!options.some((o) => o.value === issue.type_key)) options.unshift({ value: issue.type_key, label: issue.type_name })

  async function save() {
    const patch = {
      type_key: typeKey !== issue.type_key ? typeKey : undefined,
      title: title.trim() !== issue.title ? title.trim() : undefined,
      description: description !== issue.description ? description : undefined,
    }
    if (patch.type_key === undefined && patch.title === undefined && patch.description === undefined) return onClose()
    setBusy(true)
    try {
      const next = await trpcClient.issues.update.mutate({ key: issue._key, ...patch })
      queryClient.setQueryData(trpc.issues.get.queryKey({ key: issue._key }), next)
      notifySuccess(t`Segnalazione aggiornata`)
      void invalidateIssues()
      onClose()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t`Modifica ${issue.code}`} size="lg" centered>
      <Stack gap="sm">
        <Select label={t`Tipo`} data={options} value={typeKey} onChange={(v) => v && setTypeKey(v)} allowDeselect={false} searchable size={size} />
        <TextInput
          label={t`Titolo`}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          maxLength={ISSUE_TITLE_MAX}
          required
          size={size}
          error={!title.trim() ? t`Il titolo è obbligatorio` : undefined}
          data-testid="issue-edit-title"
        />
        <Textarea
          label={t`Descrizione`}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          maxLength={ISSUE_DESCRIPTION_MAX}
          autosize
          minRows={3}
          maxRows={10}
          size={size}
        />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" size={size} onClick={onClose}>
            <Trans>Annulla</Trans>
          </Button>
          <Button size={size} onClick={() => void save()} loading={busy} disabled={!title.trim()} data-testid="issue-edit-save">
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
