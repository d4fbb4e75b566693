import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Stack, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { Loading } from '../../../../components/QueryState'
import { draftOf, PositionForm, type PositionDraft } from '../../../../components/warehouse/PositionForm'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/warehouse/positions/new')({
  validateSearch: (s: Record<string, unknown>): { parent?: string } => ({ parent: typeof s.parent === 'string' && s.parent ? s.parent : undefined }),
  component: NewPositionPage,
})

/** A new position, at the top or inside another (`?parent=` when opened from a position). */
function NewPositionPage() {
  const { t } = useLingui()
  const { parent } = Route.useSearch()
  const navigate = useNavigate()
  const [saving, setSaving] = useState(false)
  const parentRow = useQuery({ ...trpc.positions.get.queryOptions({ key: parent ?? '' }), enabled: Boolean(parent) })
  if (parent && parentRow.isPending) return <Loading />
  const initial: PositionDraft = { ...draftOf(), parent: parentRow.data ? { _key: parentRow.data._key, code: parentRow.data.code, description: parentRow.data.path_codes.join(' / ') } : null }

  async function create(d: PositionDraft) {
    setSaving(true)
    try {
      const row = await trpcClient.positions.create.mutate({
        code: d.code.trim(),
        description: d.description.trim(),
        parent_key: d.parent?._key ?? null,
        owned: d.owned,
        fixed: d.fixed,
        available: d.available,
        disposable: d.disposable,
      })
      await queryClient.invalidateQueries({ queryKey: trpc.positions.pathKey() })
      notifySuccess(t`Posizione ${row.code} creata`)
      await navigate({ to: '/app/warehouse/positions/$positionKey', params: { positionKey: row._key } })
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Stack gap="md">
      <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/positions" />} size="sm" w="fit-content">
        ← <Trans>Posizioni</Trans>
      </Anchor>
      <Title order={2}>
        <Trans>Nuova posizione</Trans>
      </Title>
      <PositionForm initial={initial} withParent saving={saving} submitLabel={<Trans>Crea la posizione</Trans>} onSubmit={create} />
    </Stack>
  )
}
