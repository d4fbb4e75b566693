import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Badge, Button, Group, Modal, Stack, Switch, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { SerialFieldRow } from '../../../../../../src/domains/serial-fields/schemas'
import { Loading } from '../../../../../components/QueryState'
import { FIELD_TYPE_LABELS } from '../../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { FormActions, Section } from '../-settings-ui'
import { refreshSerialFields } from './-serial-fields'
import { BackLink, LoadFailed } from '../../-library-ui'

export const Route = createFileRoute('/app/admin/general/serial-field/$field_key')({
  component: SerialFieldDetail,
})

function BackToList() {
  return (
    <BackLink to="/app/admin/general/serial-field">
      <Trans>Campi dei seriali</Trans>
    </BackLink>
  )
}

function SerialFieldDetail() {
  const { field_key } = Route.useParams()
  const { data, error } = useQuery(trpc.serialFields.get.queryOptions({ key: field_key }))
  if (error) return <LoadFailed error={error} back={<BackToList />} />
  if (!data) return <Loading />
  return <SerialFieldForm key={`${data._key}:${data.updated_at}`} field={data} />
}

function SerialFieldForm({ field }: { field: SerialFieldRow }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const [mandatory, setMandatory] = useState(field.mandatory)
  const [saving, setSaving] = useState(false)
  const [removing, setRemoving] = useState(false)
  const [confirming, setConfirming] = useState(false)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setSaving(true)
    try {
      const row = await trpcClient.serialFields.patch.mutate({ key: field._key, patch: { mandatory } })
      queryClient.setQueryData(trpc.serialFields.get.queryKey({ key: field._key }), row)
      await refreshSerialFields()
      notifySuccess(t`Campo del seriale salvato`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    setRemoving(true)
    try {
      await trpcClient.serialFields.delete.mutate({ key: field._key })
      await refreshSerialFields()
      const name = field.name
      notifySuccess(t`Campo ${name} tolto dai seriali`)
      await navigate({ to: '/app/admin/general/serial-field' })
    } catch (err) {
      notifyError(err)
    } finally {
      setRemoving(false)
      setConfirming(false)
    }
  }

  return (
    <form onSubmit={save}>
      <Stack maw={640} gap="lg">
        <div>
          <BackToList />
        </div>
        <Section title={field.name} description={field.help_text || undefined}>
          <Group gap="xs">
            <Badge variant="light">{i18n._(FIELD_TYPE_LABELS[field.type])}</Badge>
            {field.type === 'choice' && <Text size="sm">{field.options.join(', ')}</Text>}
            {!field.field_active && (
              <Badge color="gray" variant="outline">
                <Trans>Campo archiviato</Trans>
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            <Trans>
              Nome, tipo e opzioni si cambiano nella{' '}
              <Anchor renderRoot={(props) => <Link {...props} to="/app/admin/field/$field_key" params={{ field_key: field._key }} />}>
                libreria dei campi
              </Anchor>
              .
            </Trans>
          </Text>
          <Switch
            label={t`Obbligatorio`}
            description={t`Un seriale deve avere un valore per questo campo`}
            name="mandatory"
            checked={mandatory}
            onChange={(e) => setMandatory(e.currentTarget.checked)}
          />
        </Section>
        <Group justify="space-between">
          <Button variant="subtle" color="red" onClick={() => setConfirming(true)}>
            <Trans>Togli dai seriali</Trans>
          </Button>
          <FormActions dirty={mandatory !== field.mandatory} saving={saving} onCancel={() => setMandatory(field.mandatory)} />
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={<Trans>Togliere il campo dai seriali?</Trans>} centered>
        <Stack>
          <Text>
            <Trans>I seriali non chiederanno più questo campo. I valori già scritti restano leggibili e il campo resta nella libreria.</Trans>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={removing}>
              <Trans>Annulla</Trans>
            </Button>
            <Button color="red" onClick={remove} loading={removing}>
              <Trans>Togli</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  )
}
