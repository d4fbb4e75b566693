import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { UnsavedChangesGuard } from '../../../../../components/UnsavedChangesGuard'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { trpcClient } from '../../../../../lib/trpc'
import { invalidateWorkOrders, useWorkOrder } from '../-workorder-ui'

export const Route = createFileRoute('/app/production/workorder/$wo_key/notes')({
  component: NotesTab,
})

/** Notes written by production; operators read them with the job. */
function NotesTab() {
  const { t } = useLingui()
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  const [text, setText] = useState(wo?.notes ?? '')
  const [saving, setSaving] = useState(false)
  useEffect(() => setText(wo?.notes ?? ''), [wo?.notes])
  if (!wo) return null
  const readOnly = wo.archived_at !== null
  const dirty = text !== wo.notes

  async function save() {
    setSaving(true)
    try {
      await trpcClient.workOrders.patch.mutate({ key: wo!._key, patch: { notes: text } })
      await invalidateWorkOrders()
      notifySuccess(t`Note salvate`)
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Paper withBorder radius="md" p="lg" maw={900}>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          <Trans>Le note sono visibili agli operatori che lavorano i job di questo ordine.</Trans>
        </Text>
        <Textarea
          aria-label={t`Note dell'ordine di lavoro`}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={6}
          maxLength={20_000}
          readOnly={readOnly}
          placeholder={readOnly ? '' : t`Istruzioni, priorità, accordi con il cliente…`}
        />
        {!readOnly && (
          <Group justify="flex-end">
            <Button variant="default" disabled={!dirty || saving} onClick={() => setText(wo.notes)}>
              <Trans>Annulla</Trans>
            </Button>
            <Button onClick={save} disabled={!dirty} loading={saving}>
              <Trans>Salva note</Trans>
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  )
}
