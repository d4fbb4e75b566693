import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { PositionDetail } from '../../../../../src/domains/positions/schemas'
import { LoadError, Loading } from '../../../../components/QueryState'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { CountDialog } from '../../../../components/warehouse/CountDialog'
import { InventoryView } from '../../../../components/warehouse/InventoryView'
import { MovementsTable } from '../../../../components/warehouse/MovementsTable'
import { draftOf, PositionForm, type PositionDraft } from '../../../../components/warehouse/PositionForm'
import { PositionFlags, PositionsTable } from '../../../../components/warehouse/PositionsTable'
import { type Picked, useScanGroup } from '../../../../components/warehouse/scan-group'
import { PositionScanInput } from '../../../../components/warehouse/ScanInput'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { PositionPrints } from '../../../../components/printing/PositionPrints'

export const Route = createFileRoute('/app/warehouse/positions/$positionKey')({
  component: PositionPage,
})

const refresh = () => queryClient.invalidateQueries()

/** One position: where it is, what it holds (with everything inside it), the positions inside it and its movements. */
function PositionPage() {
  const { positionKey } = Route.useParams()
  const position = useQuery(trpc.positions.get.queryOptions({ key: positionKey }))
  const back = (
    <Anchor renderRoot={(p) => <Link {...p} to="/app/warehouse/positions" />} size="sm" w="fit-content">
      ← <Trans>Posizioni</Trans>
    </Anchor>
  )
  if (position.isPending) return <Loading />
  if (position.isError)
    return (
      <Stack>
        {back}
        <LoadError error={position.error} />
      </Stack>
    )
  return (
    <Stack gap="md">
      {back}
      <PositionView key={position.data.updated_at} p={position.data} />
    </Stack>
  )
}

function PositionView({ p }: { p: PositionDetail }) {
  const { t } = useLingui()
  const canEdit = useCanEditWarehouse()
  const [editing, setEditing] = useState(false)
  const [moving, setMoving] = useState(false)
  const [counting, setCounting] = useState(false)
  const [saving, setSaving] = useState(false)
  const own = useQuery({ ...trpc.movements.inventory.queryOptions({ position_key: p._key, subtree: false }), enabled: counting })
  const movements = useQuery(trpc.movements.list.queryOptions({ position_key: p._key, subtree: true, page_size: 20 }))

  async function patch(change: Parameters<typeof trpcClient.positions.update.mutate>[0]['patch'], done: string) {
    setSaving(true)
    try {
      await trpcClient.positions.update.mutate({ key: p._key, patch: change })
      await refresh()
      notifySuccess(done)
      return true
    } catch (err) {
      notifyError(err)
      return false
    } finally {
      setSaving(false)
    }
  }
  async function save(d: PositionDraft) {
    const ok = await patch({ code: d.code.trim(), description: d.description.trim(), owned: d.owned, fixed: d.fixed, available: d.available, disposable: d.disposable }, t`Posizione salvata`)
    if (ok) setEditing(false)
  }

  return (
    <>
      <Group gap="sm" align="center" wrap="wrap">
        <Title order={2} data-testid="position-title">
          {p.code}
        </Title>
        <PositionFlags p={p} />
        <PositionPrints code={p.code} />
      </Group>
      <Text size="sm" c="dimmed" data-testid="position-path">
        {p.path_codes.join(' / ')}
        {p.description ? ` — ${p.description}` : ''}
      </Text>
      {canEdit && (
        <Group gap="xs" wrap="wrap">
          <Button variant="default" size="sm" onClick={() => setEditing((x) => !x)} data-testid="position-edit">
            <Trans>Modifica</Trans>
          </Button>
          <Button variant="default" size="sm" onClick={() => setMoving(true)} data-testid="position-move">
            <Trans>Sposta</Trans>
          </Button>
          {p.active && (
            <Button variant="default" size="sm" renderRoot={(r) => <Link {...r} to="/app/warehouse/positions/new" search={{ parent: p._key }} />} data-testid="position-add-child">
              <Trans>Nuova posizione qui dentro</Trans>
            </Button>
          )}
          {p.active && (
            <Button variant="default" size="sm" renderRoot={(r) => <Link {...r} to="/app/warehouse/movements/new" search={{ to: p._key }} />} data-testid="position-load">
              <Trans>Carica qui</Trans>
            </Button>
          )}
          {p.active && (
            <Button size="sm" onClick={() => setCounting(true)} data-testid="position-count">
              <Trans>Conta</Trans>
            </Button>
          )}
          <Button
            variant="subtle"
            color={p.active ? 'red' : 'green'}
            size="sm"
            loading={saving}
            onClick={() => void patch({ active: !p.active }, p.active ? t`Posizione disattivata` : t`Posizione riattivata`)}
            data-testid="position-toggle-active"
          >
            {p.active ? <Trans>Disattiva</Trans> : <Trans>Riattiva</Trans>}
          </Button>
        </Group>
      )}
      {editing && (
        <Card withBorder>
          <PositionForm initial={draftOf(p)} withParent={false} saving={saving} submitLabel={<Trans>Salva</Trans>} onSubmit={save} onCancel={() => setEditing(false)} />
        </Card>
      )}
      {moving && <MoveDialog p={p} onClose={() => setMoving(false)} />}
      {counting &&
        (own.data ? (
          <CountDialog positionKey={p._key} positionCode={p.code} lines={own.data.lines} onClose={() => setCounting(false)} />
        ) : (
          <Loading />
        ))}
      <Title order={3} size="h4">
        <Trans>Contenuto</Trans>
      </Title>
      <InventoryView input={{ position_key: p._key }} />
      {p.children_rows.length > 0 && (
        <>
          <Title order={3} size="h4">
            <Trans>Posizioni contenute</Trans>
          </Title>
          <PositionsTable rows={p.children_rows} testid="position-children" />
        </>
      )}
      <Title order={3} size="h4">
        <Trans>Ultimi movimenti</Trans>
      </Title>
      {movements.isError ? <LoadError error={movements.error} /> : movements.data ? <MovementsTable rows={movements.data.rows} testid="position-movements" /> : <Loading />}
    </>
  )
}

/** Moves the position (with everything inside it) into another position, or to the top level. */
function MoveDialog({ p, onClose }: { p: PositionDetail; onClose: () => void }) {
  const { t } = useLingui()
  const [target, setTarget] = useState<Picked | null>(null)
  const [missing, setMissing] = useState(false)
  const [saving, setSaving] = useState(false)
  const scans = useScanGroup()
  async function move(parentKey: string | null) {
    setSaving(true)
    try {
      await trpcClient.positions.update.mutate({ key: p._key, patch: { parent_key: parentKey } })
      await refresh()
      notifySuccess(t`Posizione spostata`)
      onClose()
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal opened onClose={onClose} title={t`Sposta ${p.code}`} centered>
      <Stack>
        <Text size="sm">
          <Trans>La posizione si sposta con tutto quello che contiene.</Trans>
        </Text>
        <PositionScanInput label={t`Dentro la posizione`} placeholder={t`Scansiona o scrivi il codice`} 
          value={target}
          onChange={(v) => {
            setTarget(v)
            setMissing(false)
          }}
          error={missing ? t`Scansiona o scrivi la posizione di arrivo` : null}
          group={scans}
          name="target"
          data-autofocus
          data-testid="move-target"
        />
        <Group justify="space-between">
          {p.parent_key ? (
            <Button variant="subtle" onClick={() => void move(null)} loading={saving}>
              <Trans>Porta al primo livello</Trans>
            </Button>
          ) : (
            <span />
          )}
          <Button
            loading={saving}
            onClick={async () => {
              const picked = await scans.settle()
              if (!picked) return
              if (picked.target) void move(picked.target._key)
              else setMissing(true)
            }}
            data-testid="move-save"
          >
            <Trans>Sposta</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
