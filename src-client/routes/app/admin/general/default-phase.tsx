import { Trans, useLingui } from '@lingui/react/macro'
import { Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { PhaseParameters } from '../../../../../src/domains/process/phase-parameters'
import {
  draftParameters,
  type ParametersDraft,
  PhaseParametersFields,
  parametersValid,
} from '../../../../components/process/PhaseParametersFields'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { FormActions, sameValues } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/default-phase')({
  component: DefaultPhaseTab,
})

function DefaultPhaseTab() {
  const { data } = useQuery(trpc.settings.defaultPhase.queryOptions())
  if (!data) return <Loading />
  return <PhaseForm key={JSON.stringify(data)} saved={data} />
}

/** The parameters every new phase starts with; the same editor as a product's phase. */
function PhaseForm({ saved }: { saved: PhaseParameters }) {
  const { t } = useLingui()
  const [draft, setDraft] = useState<ParametersDraft>(saved)
  const [saving, setSaving] = useState(false)
  const dirty = !sameValues(draft, saved as ParametersDraft)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    const parameters = draftParameters(draft)
    if (!parameters || !parametersValid(draft)) return
    setSaving(true)
    try {
      const row = await trpcClient.settings.setDefaultPhase.mutate(parameters)
      queryClient.setQueryData(trpc.settings.defaultPhase.queryKey(), row)
      notifySuccess(t`Parametri predefiniti salvati`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save}>
      <Stack maw={900} gap="lg">
        <Text c="dimmed" size="sm">
          <Trans>Valori con cui parte ogni nuova fase; ogni prodotto può poi modificarli.</Trans>
        </Text>
        <PhaseParametersFields value={draft} onChange={setDraft} />
        <FormActions dirty={dirty} saving={saving} onCancel={() => setDraft(saved)} sticky />
      </Stack>
    </form>
  )
}
