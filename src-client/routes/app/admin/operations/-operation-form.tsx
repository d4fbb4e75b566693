import { Trans, useLingui } from '@lingui/react/macro'
import { Paper, Stack, Text, TextInput, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { OperationRow } from '../../../../../src/domains/operations/schemas'
import { sameSteps, type Step } from '../../../../../src/domains/process/steps'
import { StepsEditor, stepsValid } from '../../../../components/steps/StepsEditor'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { DeleteButton } from '../-library-pages'
import { FormFooter } from '../-library-ui'

const NAME_CODES = ['OPERATION_NAME_TAKEN', 'OPERATION_NAME_REQUIRED']

/** New operation or an existing one: name and the ordered default phase steps. */
export function OperationForm({ operation }: { operation?: OperationRow }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const initialSteps = operation?.default_phase_steps ?? []
  const [name, setName] = useState(operation?.name ?? '')
  const [steps, setSteps] = useState<Step[]>(initialSteps)
  const [showErrors, setShowErrors] = useState(false)
  const [serverNameError, setServerNameError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const { data: fields = [] } = useQuery(trpc.formFields.list.queryOptions({}))

  const dirty = name !== (operation?.name ?? '') || !sameSteps(steps, initialSteps)
  const nameError = serverNameError ?? (showErrors && !name.trim() ? t`Il nome è obbligatorio` : null)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!name.trim() || !stepsValid(steps)) return
    setSaving(true)
    try {
      const input = { name: name.trim(), default_phase_steps: steps }
      const row = operation
        ? await trpcClient.operations.patch.mutate({ key: operation._key, patch: input })
        : await trpcClient.operations.create.mutate(input)
      queryClient.setQueryData(trpc.operations.get.queryKey({ key: row._key }), row)
      await queryClient.invalidateQueries({ queryKey: trpc.operations.list.pathKey() })
      notifySuccess(operation ? t`Operazione aggiornata` : t`Operazione creata`)
      if (!operation) {
        await navigate({ to: '/app/admin/operations/$operation_key', params: { operation_key: row._key }, ignoreBlocker: true })
      }
    } catch (err) {
      const error = toApiError(err)
      if (NAME_CODES.includes(error.code)) setServerNameError(errorMessage(error))
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  function cancel() {
    if (!operation) return navigate({ to: '/app/admin/operations', ignoreBlocker: true })
    setName(operation?.name ?? '')
    setSteps(initialSteps)
    setShowErrors(false)
    setServerNameError(null)
  }

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Stack gap="md" maw={980}>
        <Paper withBorder p="lg" radius="md">
          <TextInput
            label={t`Nome dell'operazione`}
            name="name"
            withAsterisk
            maxLength={200}
            maw={480}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value)
              setServerNameError(null)
            }}
            error={nameError}
          />
        </Paper>
        <div>
          <Title order={4}>
            <Trans>Passi predefiniti della fase</Trans>
          </Title>
          <Text size="sm" c="dimmed" mt={2}>
            <Trans>Vengono copiati in ogni fase di prodotto creata da questa operazione, dove si possono poi modificare.</Trans>
          </Text>
        </div>
        <StepsEditor steps={steps} onChange={setSteps} fields={fields} showErrors={showErrors} />
        <Paper withBorder p="sm" radius="md" pos="sticky" bottom={0} style={{ zIndex: 2 }}>
          <FormFooter
            isNew={!operation}
            dirty={dirty}
            saving={saving}
            onCancel={cancel}
            createLabel={<Trans>Crea operazione</Trans>}
            left={
              operation && (
                <DeleteButton onClick={() => navigate({ to: '/app/admin/operations/$operation_key/delete', params: { operation_key: operation._key } })}>
                  <Trans>Elimina operazione</Trans>
                </DeleteButton>
              )
            }
          />
        </Paper>
      </Stack>
    </form>
  )
}
