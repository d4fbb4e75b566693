import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { FLOW_EVENT_TYPES, FLOW_NAME_MAX, FLOW_SECRET_MIN, FLOW_URL_MAX, type FlowEventType, type FlowRow } from '../../../../../src/domains/flows/schemas'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { ConfirmModal, FormFooter } from '../-library-ui'
import { EVENT_LABELS } from './-event-labels'

type Draft = { name: string; url: string; secret: string; event_types: FlowEventType[]; active: boolean }

const draftOf = (row?: FlowRow): Draft => ({
  name: row?.name ?? '',
  url: row?.url ?? '',
  secret: row?.secret ?? '',
  event_types: (row?.event_types ?? []) as FlowEventType[],
  active: row?.active ?? true,
})
const same = (a: Draft, b: Draft) =>
  a.name === b.name && a.url === b.url && a.secret === b.secret && a.active === b.active && [...a.event_types].sort().join() === [...b.event_types].sort().join()
const URL_SHAPE = /^https?:\/\/[^\s/?#]+[^\s]*$/i

/** A new flow or an existing one: name, address, events, secret (made by the server when left empty), active. */
export function FlowForm({ flow }: { flow?: FlowRow }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const initial = draftOf(flow)
  const [draft, setDraft] = useState<Draft>(initial)
  const [showErrors, setShowErrors] = useState(false)
  const [nameTaken, setNameTaken] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [deleting, setDeleting] = useState<'ask' | 'busy' | null>(null)
  const dirty = !same(draft, initial)
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch })
    setNameTaken(null)
  }
  const errors = {
    name: nameTaken ?? (showErrors && !draft.name.trim() ? t`Il nome è obbligatorio` : null),
    url: showErrors && !URL_SHAPE.test(draft.url.trim()) ? t`Scrivi un indirizzo http:// o https://` : null,
    events: showErrors && draft.event_types.length === 0 ? t`Scegli almeno un evento` : null,
    secret: showErrors && draft.secret !== '' && draft.secret.length < FLOW_SECRET_MIN ? t`Il segreto deve avere almeno ${FLOW_SECRET_MIN} caratteri` : null,
  }
  const secretRequired = Boolean(flow)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!draft.name.trim() || !URL_SHAPE.test(draft.url.trim()) || draft.event_types.length === 0) return
    if ((draft.secret !== '' || secretRequired) && draft.secret.length < FLOW_SECRET_MIN) return
    setSaving(true)
    try {
      const input = {
        name: draft.name.trim(),
        url: draft.url.trim(),
        event_types: FLOW_EVENT_TYPES.filter((x) => draft.event_types.includes(x)),
        active: draft.active,
        ...(draft.secret ? { secret: draft.secret } : {}),
      }
      const row = flow ? await trpcClient.flows.patch.mutate({ key: flow._key, patch: input }) : await trpcClient.flows.create.mutate(input)
      queryClient.setQueryData(trpc.flows.get.queryKey({ key: row._key }), row)
      await queryClient.invalidateQueries({ queryKey: trpc.flows.list.pathKey() })
      notifySuccess(flow ? t`Flusso aggiornato` : t`Flusso creato`)
      if (!flow) await navigate({ to: '/app/admin/flows/$flowKey', params: { flowKey: row._key }, ignoreBlocker: true })
    } catch (err) {
      const error = toApiError(err)
      if (error.code === 'FLOW_NAME_TAKEN') setNameTaken(errorMessage(error))
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    if (!flow) return
    setDeleting('busy')
    try {
      await trpcClient.flows.delete.mutate({ key: flow._key })
      await queryClient.invalidateQueries({ queryKey: trpc.flows.list.pathKey() })
      notifySuccess(t`Flusso eliminato`)
      await navigate({ to: '/app/admin/flows', ignoreBlocker: true })
    } catch (err) {
      notifyError(err)
      setDeleting(null)
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Paper withBorder p="lg" radius="md" maw={860}>
        <Stack gap="md">
          <TextInput label={t`Nome`} name="name" withAsterisk maxLength={FLOW_NAME_MAX} value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.name} />
          <TextInput
            label={t`Indirizzo di destinazione`}
            name="url"
            withAsterisk
            maxLength={FLOW_URL_MAX}
            placeholder="https://erp.example/webhooks/mes"
            value={draft.url}
            onChange={(e) => set({ url: e.currentTarget.value })}
            error={errors.url}
          />
          <Checkbox.Group
            label={t`Eventi da inviare`}
            withAsterisk
            value={draft.event_types}
            onChange={(v) => set({ event_types: v as FlowEventType[] })}
            error={errors.events}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
              {FLOW_EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={i18n._(EVENT_LABELS[type])} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <TextInput
            label={t`Segreto per la firma`}
            name="secret"
            withAsterisk={secretRequired}
            description={
              flow
                ? t`Il destinatario verifica la firma HMAC-SHA256 (intestazione webhook-signature) con questo segreto.`
                : t`Lascialo vuoto per farne generare uno; il destinatario verifica con questo la firma HMAC-SHA256.`
            }
            value={draft.secret}
            onChange={(e) => set({ secret: e.currentTarget.value })}
            error={errors.secret}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            autoComplete="off"
          />
          <Switch
            label={t`Attivo`}
            description={t`Un flusso in pausa non registra nuovi eventi; quelli già in coda aspettano che torni attivo (fino a 24 ore).`}
            checked={draft.active}
            onChange={(e) => set({ active: e.currentTarget.checked })}
          />
          <FormFooter
            isNew={!flow}
            dirty={dirty}
            saving={saving}
            onCancel={() => {
              if (!flow) return navigate({ to: '/app/admin/flows', ignoreBlocker: true })
              setDraft(initial)
              setShowErrors(false)
            }}
            createLabel={<Trans>Crea flusso</Trans>}
            left={
              flow && (
                <Button variant="subtle" color="red" onClick={() => setDeleting('ask')}>
                  <Trans>Elimina flusso</Trans>
                </Button>
              )
            }
          />
        </Stack>
      </Paper>
      {deleting && flow && (
        <ConfirmModal title={<Trans>Eliminare il flusso {flow.name}?</Trans>} busy={deleting === 'busy'} onConfirm={remove} onCancel={() => setDeleting(null)}>
          <Group>
            <Text size="sm">
              <Trans>Il registro degli invii viene eliminato e gli invii in attesa non partono più.</Trans>
            </Text>
          </Group>
        </ConfirmModal>
      )}
    </form>
  )
}
