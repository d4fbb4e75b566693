import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Progress, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type ReactNode, useRef, useState } from 'react'
import type { MissionDetail } from '../../../../../src/domains/missions/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import { MISSION_KIND_LABELS, MISSION_STATUS_COLORS, MISSION_STATUS_LABELS } from '../../../../components/missions/labels'
import { AssigneeSelect } from '../../../../components/missions/NewMissionForm'
import { Loading } from '../../../../components/QueryState'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { formatQuantity, MOVEMENT_STATUS_COLORS, MOVEMENT_STATUS_LABELS } from '../../../../components/warehouse/labels'
import { type ApiError, toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { trpc, trpcClient } from '../../../../lib/trpc'
import { CameraScanButton } from '../../../../components/scan/CameraScanButton'

export const Route = createFileRoute('/app/warehouse/missions/$missionKey')({
  component: MissionPage,
})

const same = (a: string | null | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase()

/** A mission: its progress, its lines and, while open, the scanner that carries them out. */
function MissionPage() {
  const { t, i18n } = useLingui()
  const { missionKey } = Route.useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const canEdit = useCanEditWarehouse()
  const mission = useQuery({ ...trpc.missions.get.queryOptions({ key: missionKey }), staleTime: 0 })
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [busy, setBusy] = useState(false)

  if (mission.isLoading) return <Loading />
  if (!mission.data) {
    return (
      <Stack>
        <BackLink />
        <Alert color="red">{mission.error ? errorMessage(toApiError(mission.error)) : <Trans>Missione non trovata</Trans>}</Alert>
      </Stack>
    )
  }
  const m = mission.data
  const open = m.status === 'open' || m.status === 'in_progress'
  const refresh = (next?: MissionDetail) => {
    if (next) queryClient.setQueryData(trpc.missions.get.queryKey({ key: missionKey }), next)
    void queryClient.invalidateQueries({ queryKey: trpc.missions.list.queryKey() })
  }
  async function run(action: () => Promise<MissionDetail>, success: string) {
    setBusy(true)
    try {
      refresh(await action())
      notifySuccess(success)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  async function makeList() {
    setBusy(true)
    try {
      const list = await trpcClient.missions.createList.mutate({ kind: 'mission', mission_key: m._key })
      void navigate({ to: '/app/warehouse/lists/$listKey', params: { listKey: list._key } })
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap="md">
      <BackLink />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Group gap="xs">
            <Title order={2} data-testid="mission-code">
              {m.code}
            </Title>
            <Badge color={MISSION_STATUS_COLORS[m.status]} variant="light" size="lg" data-testid="mission-status">
              {i18n._(MISSION_STATUS_LABELS[m.status])}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {i18n._(MISSION_KIND_LABELS[m.kind])}
            {m.work_order_code ? ` · ${m.work_order_code}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          {canEdit && open && (
            <Button variant="default" onClick={makeList} loading={busy}>
              <Trans>Lista da stampare</Trans>
            </Button>
          )}
          {canEdit && open && (
            <Button variant="default" color="red" onClick={() => setConfirmCancel(true)}>
              <Trans>Annulla missione</Trans>
            </Button>
          )}
        </Group>
      </Group>

      <Paper withBorder radius="md" p="sm">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label={<Trans>Avanzamento</Trans>}>
            <Group gap={6} wrap="nowrap">
              <Progress value={m.lines_total ? (100 * m.lines_done) / m.lines_total : 0} w={90} size="lg" color={m.status === 'done' ? 'green' : 'blue'} />
              <Text size="sm" data-testid="mission-progress">
                {m.lines_done}/{m.lines_total}
              </Text>
            </Group>
          </Figure>
          <Figure label={<Trans>Assegnata a</Trans>}>
            {canEdit && open ? (
              <AssigneeSelect
                unlabelled
                testid="mission-assignee-edit"
                value={m.assignee_key}
                onChange={(key) => run(() => trpcClient.missions.assign.mutate({ key: m._key, assignee_key: key }), t`Assegnazione salvata`)}
              />
            ) : (
              (m.assignee_name ?? '—')
            )}
          </Figure>
          <Figure label={<Trans>Creata</Trans>}>
            {formatDateTime(m.created_at)}
            {m.created_by_name ? ` · ${m.created_by_name}` : ''}
          </Figure>
          <Figure label={<Trans>Conclusa</Trans>}>{m.ended_at ? formatDateTime(m.ended_at) : '—'}</Figure>
        </SimpleGrid>
        {m.notes && (
          <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
            {m.notes}
          </Text>
        )}
      </Paper>

      {canEdit && open && <Scanner mission={m} onDone={refresh} />}
      {m.status === 'done' && (
        <Alert color="green" data-testid="mission-done">
          <Trans>Missione completata: tutte le righe sono state eseguite.</Trans>
        </Alert>
      )}

      <Table.ScrollContainer minWidth={820}>
        <Table striped data-testid="mission-lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>{t`Da`}</Table.Th>
              <Table.Th>{t`Prodotto`}</Table.Th>
              <Table.Th>{t`Seriale`}</Table.Th>
              <Table.Th ta="right">{t`Quantità`}</Table.Th>
              <Table.Th>{t`A`}</Table.Th>
              <Table.Th>{t`Stato`}</Table.Th>
              <Table.Th>{t`Eseguita`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {m.lines.map((l, i) => (
              <Table.Tr key={l._key} data-testid="mission-line" data-done={l.done_at ? 'true' : 'false'}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {l.movement.from_position_code}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600} span>
                    {l.movement.product_code}
                  </Text>{' '}
                  <Text size="sm" c="dimmed" span>
                    {l.movement.product_description}
                  </Text>
                </Table.Td>
                <Table.Td>{l.movement.serial ?? ''}</Table.Td>
                <Table.Td ta="right">{formatQuantity(l.movement.confirmed_quantity ?? l.movement.planned_quantity)}</Table.Td>
                <Table.Td>{l.movement.to_position_code}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 130 }}>
                  <Badge color={MOVEMENT_STATUS_COLORS[l.movement.status]} variant="light" style={{ minWidth: 'max-content' }}>
                    {l.done_at ? t`Eseguita` : i18n._(MOVEMENT_STATUS_LABELS[l.movement.status])}
                  </Badge>
                </Table.Td>
                <Table.Td>{l.done_at ? `${formatDateTime(l.done_at)}${l.done_by_name ? ` · ${l.done_by_name}` : ''}` : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal opened={confirmCancel} onClose={() => setConfirmCancel(false)} title={t`Annullare ${m.code}?`} centered>
        <Text size="sm">
          <Trans>I movimenti non ancora eseguiti vengono annullati; quelli eseguiti restano (si possono stornare dai movimenti).</Trans>
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirmCancel(false)}>
            <Trans>Indietro</Trans>
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={async () => {
              await run(() => trpcClient.missions.cancel.mutate({ key: m._key }), t`Missione annullata`)
              setConfirmCancel(false)
            }}
          >
            <Trans>Annulla missione</Trans>
          </Button>
        </Group>
      </Modal>
    </Stack>
  )
}

/**
 * The scanner: the position first (Enter), then the product code or the serial (Enter). A
 * position with nothing to take is said at once; the server checks the pair and carries the
 * line out (its movement confirmed). Each outcome is said in words, the fields clear for the next.
 */
function Scanner({ mission, onDone }: { mission: MissionDetail; onDone: (m: MissionDetail) => void }) {
  const { t } = useLingui()
  const [position, setPosition] = useState('')
  const [item, setItem] = useState('')
  const [positionOk, setPositionOk] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const positionRef = useRef<HTMLInputElement>(null)
  const itemRef = useRef<HTMLInputElement>(null)
  const todo = mission.lines.filter((l) => !l.done_at && l.movement.status === 'planned')
  const positionsToVisit = [...new Set(todo.map((l) => l.movement.from_position_code ?? ''))].filter(Boolean)

  /** Reads the typed position (Enter, leaving the field, or an item scanned after it); true when there is something to take there. */
  function readPosition({ moveOn }: { moveOn: boolean }): boolean {
    const code = position.trim()
    if (!code) return false
    if (!todo.some((l) => same(l.movement.from_position_code, code))) {
      setPositionOk(false)
      setMessage({ ok: false, text: t`Posizione sbagliata: in ${code} non c'è nulla da prelevare per questa missione. Vai a: ${positionsToVisit.join(', ')}` })
      if (moveOn) positionRef.current?.select()
      return false
    }
    setPositionOk(true)
    setMessage(null)
    if (moveOn) itemRef.current?.focus()
    return true
  }

  function scanProblem(err: ApiError, code: string): string {
    const extra = err.extra
    if (err.code === 'MISSION_SCAN_ITEM' && Array.isArray(extra.expected)) {
      return t`Articolo sbagliato: ${code} non va prelevato in ${String(extra.position_code ?? position)}. Atteso: ${(extra.expected as string[]).join(', ')}`
    }
    if (err.code === 'MISSION_SCAN_POSITION' && Array.isArray(extra.expected_positions)) {
      return t`Posizione sbagliata: vai a ${(extra.expected_positions as string[]).join(', ')}`
    }
    if (err.code === 'MISSION_SCAN_POSITION') return t`Posizione ${position.trim()} inesistente`
    return errorMessage(err)
  }

  async function readItem() {
    const code = item.trim()
    if (!code || busy) return
    if (!positionOk && !readPosition({ moveOn: false })) {
      if (!position.trim()) setMessage({ ok: false, text: t`Scansiona prima la posizione` })
      positionRef.current?.focus()
      return
    }
    setBusy(true)
    try {
      const out = await trpcClient.missions.scan.mutate({ key: mission._key, position_code: position.trim(), item_code: code })
      const line = out.mission.lines.find((l) => l._key === out.line_key)!
      setMessage({
        ok: true,
        text: t`Fatto: ${formatQuantity(line.movement.confirmed_quantity ?? line.movement.planned_quantity)} × ${line.movement.serial ?? line.movement.product_code} da ${line.movement.from_position_code ?? ''} a ${line.movement.to_position_code ?? ''}`,
      })
      setItem('')
      const stillHere = out.mission.lines.some((l) => !l.done_at && l.movement.status === 'planned' && same(l.movement.from_position_code, position))
      if (stillHere) itemRef.current?.focus()
      else {
        setPosition('')
        setPositionOk(false)
        positionRef.current?.focus()
      }
      onDone(out.mission)
    } catch (e) {
      setMessage({ ok: false, text: scanProblem(toApiError(e), code) })
      itemRef.current?.select()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Paper withBorder radius="md" p="md" data-testid="mission-scanner">
      <Stack gap="sm">
        <Text fw={600}>
          <Trans>Esegui con lo scanner: prima la posizione, poi il prodotto o il seriale</Trans>
        </Text>
        {positionsToVisit.length > 0 && (
          <Text size="sm" c="dimmed">
            <Trans>Posizioni da visitare: {positionsToVisit.join(', ')}</Trans>
          </Text>
        )}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            ref={positionRef}
            label={t`Posizione`}
            size="lg"
            w={260}
            autoFocus
            autoComplete="off"
            value={position}
            onChange={(e) => {
              setPosition(e.currentTarget.value)
              setPositionOk(false)
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                readPosition({ moveOn: true })
              }
            }}
            onBlur={() => {
              if (!positionOk) readPosition({ moveOn: false })
            }}
            rightSection={positionOk ? '✓' : <CameraScanButton target={() => positionRef.current} testId="camera-scan-position" />}
            rightSectionPointerEvents="all"
            data-testid="scan-position"
          />
          <TextInput
            ref={itemRef}
            label={t`Prodotto o seriale`}
            size="lg"
            w={300}
            autoComplete="off"
            value={item}
            readOnly={busy}
            onChange={(e) => setItem(e.currentTarget.value)}
            rightSection={busy ? undefined : <CameraScanButton target={() => itemRef.current} testId="camera-scan-item" />}
            rightSectionPointerEvents="all"
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                void readItem()
              }
            }}
            onBlur={(e) => {
              // Leaving the field carries nothing out (a scan moves stock): the typed code waits for Enter, and says so
              // (not when going back to the position, which is where a refused item sends the cursor with its own message).
              const code = item.trim()
              if (code && !busy && e.relatedTarget !== positionRef.current) setMessage({ ok: false, text: t`${code} non è ancora registrato: torna nel campo e premi Invio per eseguire il prelievo` })
            }}
            data-testid="scan-item"
          />
        </Group>
        {message && (
          <Alert color={message.ok ? 'green' : 'red'} data-testid={message.ok ? 'scan-ok' : 'scan-error'}>
            <Text size="md" fw={500}>
              {message.text}
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  )
}

function BackLink() {
  return (
    <Anchor component={Link} to="/app/warehouse/missions" size="sm" display="inline-block">
      ← <Trans>Missioni</Trans>
    </Anchor>
  )
}

function Figure({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" mt={2}>
        {children}
      </Text>
    </div>
  )
}
