import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Paper, Select, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { FIELD_TYPES, type FieldRow, type FieldType, MAX_FIELD_OPTIONS, SINGLE_VALUE_TYPES } from '../../../../../src/domains/form-fields/schemas'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { FIELD_TYPE_LABELS } from '../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { ConfirmModal, FormFooter } from '../-library-ui'

type Draft = { name: string; type: FieldType; options: string[]; multiple: boolean; mandatory: boolean; help_text: string }

const draftOf = (row?: FieldRow): Draft => ({
  name: row?.name ?? '',
  type: row?.type ?? 'text',
  options: row?.options ?? [],
  multiple: row?.multiple ?? false,
  mandatory: row?.mandatory ?? false,
  help_text: row?.help_text ?? '',
})
const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b)

/** New form field or an existing one; archive, restore and delete for existing ones. */
export function FieldForm({ field }: { field?: FieldRow }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const initial = draftOf(field)
  const [draft, setDraft] = useState<Draft>(initial)
  const [showErrors, setShowErrors] = useState(false)
  const [nameServerError, setNameServerError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const dirty = !sameDraft(draft, initial)
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const typeLocked = Boolean(field?.in_use)
  const singleValue = SINGLE_VALUE_TYPES.includes(draft.type)

  const nameError = nameServerError ?? (showErrors && !draft.name.trim() ? t`Il nome è obbligatorio` : null)
  const optionsError = showErrors && draft.type === 'choice' && draft.options.length === 0 ? t`Aggiungi almeno un'opzione` : null

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!draft.name.trim() || (draft.type === 'choice' && draft.options.length === 0)) return
    setSaving(true)
    try {
      const input = { ...draft, name: draft.name.trim(), options: draft.type === 'choice' ? draft.options : [] }
      const row = field ? await trpcClient.formFields.patch.mutate({ key: field._key, patch: input }) : await trpcClient.formFields.create.mutate(input)
      await afterChange(row)
      notifySuccess(field ? t`Campo aggiornato` : t`Campo creato`)
      if (!field) await navigate({ to: '/app/admin/field/$field_key', params: { field_key: row._key }, ignoreBlocker: true })
    } catch (err) {
      const error = toApiError(err)
      if (error.code === 'FIELD_NAME_TAKEN' || error.code === 'FIELD_NAME_REQUIRED') setNameServerError(errorMessage(error))
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  async function afterChange(row?: FieldRow) {
    if (row) queryClient.setQueryData(trpc.formFields.get.queryKey({ key: row._key }), row)
    await queryClient.invalidateQueries({ queryKey: trpc.formFields.list.pathKey() })
  }

  async function setActive(active: boolean) {
    if (!field) return
    try {
      await afterChange(await trpcClient.formFields.patch.mutate({ key: field._key, patch: { active } }))
      notifySuccess(active ? t`Campo ripristinato` : t`Campo archiviato`)
    } catch (err) {
      notifyError(err)
    }
  }

  async function remove() {
    if (!field) return
    setSaving(true)
    try {
      const result = await trpcClient.formFields.delete.mutate({ key: field._key })
      if (result.deleted) {
        notifySuccess(t`Campo eliminato`)
        await navigate({ to: '/app/admin/field', ignoreBlocker: true })
        queryClient.removeQueries({ queryKey: trpc.formFields.get.queryKey({ key: field._key }) })
        await afterChange()
      } else {
        setDeleting(false)
        notifySuccess(t`Il campo è in uso: è stato archiviato`)
        await queryClient.invalidateQueries({ queryKey: trpc.formFields.pathKey() })
      }
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Paper withBorder p="lg" radius="md" maw={640}>
        <Stack gap="md">
          {field && !field.active && (
            <Alert color="gray" title={t`Campo archiviato`}>
              <Trans>Non compare tra i campi da scegliere per nuovi moduli. I moduli che già lo usano lo mantengono.</Trans>
            </Alert>
          )}
          <TextInput
            label={t`Nome`}
            description={t`L'etichetta che l'operatore legge nel modulo`}
            name="name"
            withAsterisk
            maxLength={200}
            value={draft.name}
            onChange={(e) => {
              set({ name: e.currentTarget.value })
              setNameServerError(null)
            }}
            error={nameError}
          />
          <Select
            label={t`Tipo`}
            name="type"
            allowDeselect={false}
            styles={{ wrapper: { maxWidth: 320 } }}
            data={FIELD_TYPES.map((type) => ({ value: type, label: i18n._(FIELD_TYPE_LABELS[type]) }))}
            value={draft.type}
            disabled={typeLocked}
            description={typeLocked ? t`Il campo è usato da operazioni: il tipo non può cambiare.` : undefined}
            onChange={(v) => {
              if (!v) return
              const type = v as FieldType
              set({ type, ...(SINGLE_VALUE_TYPES.includes(type) ? { multiple: false } : {}) })
            }}
          />
          {draft.type === 'choice' && (
            <TagsInput
              label={t`Opzioni`}
              description={t`Scrivi un'opzione e premi Invio`}
              withAsterisk
              maxTags={MAX_FIELD_OPTIONS}
              value={draft.options}
              onChange={(options) => set({ options })}
              error={optionsError}
              clearable
            />
          )}
          <Switch
            label={t`Valori multipli`}
            description={singleValue ? t`Non disponibile per i campi Sì/No` : t`Si possono inserire più valori`}
            checked={draft.multiple}
            disabled={singleValue}
            onChange={(e) => set({ multiple: e.currentTarget.checked })}
          />
          <Switch
            label={t`Obbligatorio`}
            description={t`Il passo non si completa finché il campo non è compilato`}
            checked={draft.mandatory}
            onChange={(e) => set({ mandatory: e.currentTarget.checked })}
          />
          <Textarea
            label={t`Testo di aiuto`}
            description={t`Mostrato sotto il campo nel modulo`}
            name="help_text"
            autosize
            minRows={2}
            maxLength={2000}
            value={draft.help_text}
            onChange={(e) => set({ help_text: e.currentTarget.value })}
          />
          <FormFooter
            isNew={!field}
            dirty={dirty}
            saving={saving}
            onCancel={() => {
              if (!field) return navigate({ to: '/app/admin/field', ignoreBlocker: true })
              setDraft(initial)
              setShowErrors(false)
              setNameServerError(null)
            }}
            createLabel={<Trans>Crea campo</Trans>}
            left={
              field && (
                <>
                  <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
                    <Trans>Elimina campo</Trans>
                  </Button>
                  {field.active ? (
                    <Button variant="subtle" color="gray" onClick={() => setActive(false)}>
                      <Trans>Archivia</Trans>
                    </Button>
                  ) : (
                    <Button variant="subtle" onClick={() => setActive(true)}>
                      <Trans>Ripristina</Trans>
                    </Button>
                  )}
                </>
              )
            }
          />
        </Stack>
      </Paper>
      {deleting && field && (
        <ConfirmModal title={<Trans>Elimina campo</Trans>} busy={saving} onConfirm={remove} onCancel={() => setDeleting(false)}>
          <Text size="sm">
            {field.in_use ? (
              <Trans>Il campo «{field.name}» è usato da operazioni: non verrà eliminato ma archiviato.</Trans>
            ) : (
              <Trans>Eliminare il campo «{field.name}»?</Trans>
            )}
          </Text>
        </ConfirmModal>
      )}
    </form>
  )
}
