import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Paper, Select, Stack, Switch, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import {
  ISSUE_LINK_TYPES,
  ISSUE_TYPE_CODE_MAX,
  ISSUE_TYPE_NAME_MAX,
  type IssueLinkType,
  type IssueTypeRow,
  MAX_CLOSE_WITHIN_HOURS,
} from '../../../../../src/domains/issue-types/schemas'
import { type NumberRules, readNumberText } from '../../../../../src/i18n/number-text'
import { NumberTextInput, toNumberText } from '../../../../components/NumberTextInput'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { ISSUE_LINK_LABELS } from '../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { DeleteButton } from '../-library-pages'
import { FormFooter } from '../-library-ui'

/** `close_within` as typed (NumberTextInput). */
type Draft = { code: string; name: string; close_within: string; critical: boolean; link_type: IssueLinkType; active: boolean }

const draftOf = (row?: IssueTypeRow): Draft => ({
  code: row?.code ?? '',
  name: row?.name ?? '',
  close_within: toNumberText(row?.close_within ?? 0),
  critical: row?.critical ?? false,
  link_type: row?.link_type ?? 'generic',
  active: row?.active ?? true,
})

const HOURS_RULES: NumberRules = { min: 0, max: MAX_CLOSE_WITHIN_HOURS, integer: true }

const sameDraft = (a: Draft, b: Draft) => (Object.keys(a) as (keyof Draft)[]).every((k) => String(a[k]) === String(b[k]))

/** New issue type or an existing one. Print templates are kept as they are (their library comes later). */
export function IssueTypeForm({ issueType }: { issueType?: IssueTypeRow }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const initial = draftOf(issueType)
  const [draft, setDraft] = useState<Draft>(initial)
  const [showErrors, setShowErrors] = useState(false)
  const [serverErrors, setServerErrors] = useState<{ code?: string; name?: string }>({})
  const [saving, setSaving] = useState(false)
  const dirty = !sameDraft(draft, initial)
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch })
    setServerErrors({})
  }

  const hours = readNumberText(draft.close_within, { ...HOURS_RULES, required: true })
  // Refused text shows the field's own reason; an empty field says what to type.
  const hoursError = hours.ok ? null : t`Inserisci le ore (0 = mai)`
  const codeError = serverErrors.code ?? (showErrors && !draft.code.trim() ? t`Il codice è obbligatorio` : null)
  const nameError = serverErrors.name ?? (showErrors && !draft.name.trim() ? t`Il nome è obbligatorio` : null)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!draft.code.trim() || !draft.name.trim() || !hours.ok || hours.value === null) return
    setSaving(true)
    try {
      const input = { ...draft, code: draft.code.trim(), name: draft.name.trim(), close_within: hours.value }
      const row = issueType
        ? await trpcClient.issueTypes.patch.mutate({ key: issueType._key, patch: input })
        : await trpcClient.issueTypes.create.mutate(input)
      queryClient.setQueryData(trpc.issueTypes.get.queryKey({ key: row._key }), row)
      await queryClient.invalidateQueries({ queryKey: trpc.issueTypes.list.pathKey() })
      notifySuccess(issueType ? t`Tipo di segnalazione aggiornato` : t`Tipo di segnalazione creato`)
      if (!issueType) await navigate({ to: '/app/admin/issue-types/$issueTypeKey', params: { issueTypeKey: row._key }, ignoreBlocker: true })
    } catch (err) {
      const error = toApiError(err)
      if (error.code === 'ISSUE_TYPE_CODE_TAKEN' || error.code === 'ISSUE_TYPE_CODE_REQUIRED') setServerErrors({ code: errorMessage(error) })
      else if (error.code === 'ISSUE_TYPE_NAME_REQUIRED') setServerErrors({ name: errorMessage(error) })
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Paper withBorder p="lg" radius="md" maw={640}>
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextInput label={t`Codice`} name="code" withAsterisk maxLength={ISSUE_TYPE_CODE_MAX} value={draft.code} onChange={(e) => set({ code: e.currentTarget.value })} error={codeError} />
            <TextInput label={t`Nome`} name="name" withAsterisk maxLength={ISSUE_TYPE_NAME_MAX} value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} error={nameError} />
          </Group>
          <NumberTextInput
            label={t`Chiudere entro (ore)`}
            description={t`Trascorse queste ore, una segnalazione aperta diventa critica. 0 = mai.`}
            name="close_within"
            {...HOURS_RULES}
            unit="h"
            styles={{ wrapper: { maxWidth: 200 } }}
            value={draft.close_within}
            onChange={(text) => set({ close_within: text })}
            error={showErrors || dirty ? hoursError : null}
          />
          <Select
            label={t`Collegata a`}
            description={t`A cosa si riferiscono le segnalazioni di questo tipo`}
            name="link_type"
            allowDeselect={false}
            styles={{ wrapper: { maxWidth: 320 } }}
            data={ISSUE_LINK_TYPES.map((l) => ({ value: l, label: i18n._(ISSUE_LINK_LABELS[l]) }))}
            value={draft.link_type}
            onChange={(v) => v && set({ link_type: v as IssueLinkType })}
          />
          <Switch
            label={t`Critica`}
            description={t`Le segnalazioni di questo tipo nascono critiche`}
            checked={draft.critical}
            onChange={(e) => set({ critical: e.currentTarget.checked })}
          />
          <Switch
            label={t`Attivo`}
            description={t`I tipi non attivi non si possono scegliere per nuove segnalazioni`}
            checked={draft.active}
            onChange={(e) => set({ active: e.currentTarget.checked })}
          />
          <FormFooter
            isNew={!issueType}
            dirty={dirty}
            saving={saving}
            onCancel={() => {
              if (!issueType) return navigate({ to: '/app/admin/issue-types', ignoreBlocker: true })
              setDraft(initial)
              setShowErrors(false)
              setServerErrors({})
            }}
            createLabel={<Trans>Crea tipo</Trans>}
            left={
              issueType && (
                <DeleteButton onClick={() => navigate({ to: '/app/admin/issue-types/$issueTypeKey/delete', params: { issueTypeKey: issueType._key } })}>
                  <Trans>Elimina tipo</Trans>
                </DeleteButton>
              )
            }
          />
        </Stack>
      </Paper>
    </form>
  )
}
