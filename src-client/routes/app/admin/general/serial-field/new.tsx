import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Group, Select, Stack, Switch, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { Loading } from '../../../../../components/QueryState'
import { FIELD_TYPE_LABELS } from '../../../../../lib/library-labels'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { Section } from '../-settings-ui'
import { refreshSerialFields } from './-serial-fields'

export const Route = createFileRoute('/app/admin/general/serial-field/new')({
  component: NewSerialField,
})

function NewSerialField() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const fields = useQuery(trpc.formFields.list.queryOptions({ active_only: true }))
  const serialFields = useQuery(trpc.serialFields.list.queryOptions())
  const [fieldKey, setFieldKey] = useState<string | null>(null)
  const [mandatory, setMandatory] = useState(false)
  const [saving, setSaving] = useState(false)
  if (!fields.data || !serialFields.data) return <Loading />
  const taken = new Set(serialFields.data.map((f) => f._key))
  const choices = fields.data.filter((f) => !taken.has(f._key)).map((f) => ({ value: f._key, label: `${f.name} (${i18n._(FIELD_TYPE_LABELS[f.type])})` }))

  async function save(e: React.FormEvent) {
    e.preventDefault()
    if (!fieldKey) return
    setSaving(true)
    try {
      const row = await trpcClient.serialFields.create.mutate({ field_key: fieldKey, mandatory })
      await refreshSerialFields()
      const name = row.name
      notifySuccess(t`Campo ${name} aggiunto ai seriali`)
      await navigate({ to: '/app/admin/general/serial-field' })
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save}>
      <Stack maw={640} gap="lg">
        <Section
          title={<Trans>Nuovo campo dei seriali</Trans>}
          description={<Trans>Scegli un campo della libreria: i seriali lo avranno in fondo all'elenco.</Trans>}
        >
          <Select
            label={t`Campo`}
            name="field_key"
            placeholder={t`Scegli un campo`}
            data={choices}
            value={fieldKey}
            onChange={setFieldKey}
            searchable
            nothingFoundMessage={t`Nessun campo trovato`}
          />
          {choices.length === 0 && (
            <Text size="sm" c="dimmed">
              <Trans>
                Tutti i campi sono già tra i campi dei seriali.{' '}
                <Anchor component={Link} to="/app/admin/field/new">
                  Crea un nuovo campo
                </Anchor>
              </Trans>
            </Text>
          )}
          <Switch
            label={t`Obbligatorio`}
            description={t`Un seriale deve avere un valore per questo campo`}
            name="mandatory"
            checked={mandatory}
            onChange={(e) => setMandatory(e.currentTarget.checked)}
          />
        </Section>
        <Group justify="flex-end">
          <Button variant="default" component={Link} to="/app/admin/general/serial-field">
            <Trans>Annulla</Trans>
          </Button>
          <Button type="submit" disabled={!fieldKey} loading={saving}>
            <Trans>Aggiungi</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
