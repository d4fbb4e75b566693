import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react'
import type { FieldDefinition, FormValue } from '../../../src/domains/execution/schemas'
import type { BatchPiece, BatchSerials, PieceSerialsInput } from '../../../src/domains/serials/batch-serials'
import { isEmptyValue } from '../../../src/domains/products/metadata'
import { type ApiError, toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpc } from '../../lib/trpc'
import { declareSerials, useBatchSerials } from '../../offline/batch-serials'
import { FormFieldInput } from './FormFieldInput'
import { useSerialRefusals } from './serial-refusals'
import { useWorkSession } from './work-session-context'
import { CameraScanButton } from '../scan/CameraScanButton'

/**
 * Serials of the open batch (traceability level complete; issue 13): one row per piece with the
 * serial it gets (numbered by the phase counter on the first save, or typed/scanned when the
 * phase has no counter) and a scan field per component serial it takes, then its serial fields.
 * A barcode scanner types the code and ends with Enter: Enter moves to the next field, and on a
 * piece's last field saves (PUT batch/{key}/serial-temp-links) and goes on to the next piece.
 * Offline (or behind writes still kept) a save is kept on the device, in order with the steps
 * (offline/batch-serials.ts). Nothing here is a form, so Enter never submits anything else. A serial inside another one asks
 * to confirm moving it, one in no stock position (inventory management on) to confirm linking it
 * without inventory movements; every other refusal shows the server's message in red, next to the field.
 */

type PieceDraft = { code: string; slots: Record<string, string>; data: Record<string, FormValue> }
type Drafts = Record<number, PieceDraft>

const slotId = (componentKey: string, n: number) => `${componentKey}#${n}`
/** Room below a field or the save button for the step's sticky actions bar, so it never covers them. */
const STICKY_ACTIONS_CLEARANCE = 96

const slotsOf = (c: BatchSerials['components'][number], piece: number) => (piece === 1 ? c.first_piece_slots : c.piece_slots)

function draftOf(view: BatchSerials, p: BatchPiece): PieceDraft {
  const slots: Record<string, string> = {}
  for (const c of view.components) {
    const codes = p.links.filter((l) => l.component_key === c.component_key).map((l) => l.code)
    codes.forEach((code, n) => {
      slots[slotId(c.component_key, n)] = code
    })
  }
  return { code: p.code ?? '', slots, data: p.data as Record<string, FormValue> }
}

const sameDraft = (a: PieceDraft, b: PieceDraft) =>
  a.code.trim() === b.code.trim() &&
  JSON.stringify(Object.entries(a.slots).filter(([, v]) => v.trim()).map(([k, v]) => [k, v.trim()]).sort()) ===
    JSON.stringify(Object.entries(b.slots).filter(([, v]) => v.trim()).map(([k, v]) => [k, v.trim()]).sort()) &&
  JSON.stringify(Object.entries(a.data).filter(([, v]) => !isEmptyValue(v)).sort()) === JSON.stringify(Object.entries(b.data).filter(([, v]) => !isEmptyValue(v)).sort())

type Props = {
  batchKey: string
  editable: boolean
  /** Unsaved scans: the steps page treats them as edit mode (no step switch, no confirm). */
  onDirtyChange: (dirty: boolean) => void
}

export function BatchSerialsPanel({ batchKey, editable, onDirtyChange }: Props) {
  const query = useBatchSerials(batchKey)
  if (!query.data?.required) return null
  return <Pieces view={query.data} batchKey={batchKey} editable={editable} onDirtyChange={onDirtyChange} />
}

function Pieces({ view, batchKey, editable, onDirtyChange }: Props & { view: BatchSerials }) {
  const { t } = useLingui()
  const { jobKey, view: session } = useWorkSession()
  const saved = useMemo(() => Object.fromEntries(view.pieces.map((p) => [p.piece, draftOf(view, p)])) as Drafts, [view])
  const [drafts, setDrafts] = useState<Drafts>({})
  const [busy, setBusy] = useState(false)
  const [fieldError, setFieldError] = useState<{ key: string; message: string } | null>(null)
  const [confirmMove, setConfirmMove] = useState<{ code: string; parent: string; piece: number } | null>(null)
  const [confirmStock, setConfirmStock] = useState<{ serials: string[]; extra: number[] } | null>(null)
  const moves = useRef(new Set<string>())
  const notInStock = useRef(new Set<string>())
  const inputs = useRef(new Map<string, HTMLInputElement>())

  const current = (piece: number): PieceDraft => drafts[piece] ?? saved[piece]!
  const dirtyPieces = view.pieces.filter((p) => drafts[p.piece] && !sameDraft(drafts[p.piece]!, saved[p.piece]!)).map((p) => p.piece)
  const dirty = dirtyPieces.length > 0
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange])
  useEffect(() => () => onDirtyChange(false), [onDirtyChange])

  const hasCounter = view.counter_name !== null
  const declared = view.pieces.filter((p) => p.declared).length
  const fields: FieldDefinition[] = view.serial_fields

  /** The scan fields of a piece in order (typed serial first when there is no counter). */
  const orderOf = (piece: number): string[] => [
    ...(hasCounter ? [] : [`${piece}:code`]),
    ...view.components.flatMap((c) => Array.from({ length: slotsOf(c, piece) }, (_, n) => `${piece}:${slotId(c.component_key, n)}`)),
  ]
  const focus = (key: string | undefined) => {
    const el = key ? inputs.current.get(key) : undefined
    if (el) {
      el.focus()
      el.select()
    }
  }

  function edit(piece: number, change: (d: PieceDraft) => PieceDraft) {
    setFieldError(null)
    setDrafts((all) => ({ ...all, [piece]: change(all[piece] ?? saved[piece]!) }))
  }

  function bodyOf(pieces: number[]): PieceSerialsInput[] {
    return pieces.map((piece) => {
      const d = current(piece)
      const links = view.components.flatMap((c) =>
        Array.from({ length: slotsOf(c, piece) }, (_, n) => d.slots[slotId(c.component_key, n)]?.trim() ?? '')
          .filter((code) => code !== '')
          .map((code) => ({
            component_key: c.component_key,
            child_serial_code: code,
            ...(moves.current.has(code) ? { confirm_move: true } : {}),
            ...(notInStock.current.has(code) ? { confirm_not_in_stock: true } : {}),
          })),
      )
      const data = Object.fromEntries(Object.entries(d.data).filter(([, v]) => !isEmptyValue(v)))
      return {
        piece,
        ...(!hasCounter && d.code.trim() ? { serial_code: d.code.trim() } : {}),
        links,
        ...(fields.length ? { data } : {}),
      }
    })
  }

  /** Saves the pieces changed (and, with a counter, every piece still without its serial). */
  async function save(extra: number[] = []): Promise<boolean> {
    const pieces = [...new Set([...dirtyPieces, ...extra, ...(hasCounter ? view.pieces.filter((p) => !p.serial_key).map((p) => p.piece) : [])])].sort((a, b) => a - b)
    if (pieces.length === 0) return true
    setBusy(true)
    try {
      const out = await declareSerials({ batch_key: batchKey, pieces: bodyOf(pieces) }, jobKey, { batch_number: session.batch?.number, pieces })
      if (out !== 'kept') queryClient.setQueryData(trpc.execution.batchSerials.queryKey({ batch_key: batchKey }), out)
      setDrafts((all) => Object.fromEntries(Object.entries(all).filter(([k]) => !pieces.includes(Number(k)))))
      setFieldError(null)
      moves.current.clear()
      notInStock.current.clear()
      notifySuccess(
        out === 'kept'
          ? t`Seriali salvati sul dispositivo: vengono inviati appena il server risponde`
          : `${t`Collegamenti seriali salvati`}: ${savedLinks(out.pieces.filter((p) => pieces.includes(p.piece)))}`,
      )
      return true
    } catch (e) {
      const err = toApiError(e)
      const code = typeof err.extra.code === 'string' ? err.extra.code : null
      const parent = typeof err.extra.current_parent_code === 'string' ? err.extra.current_parent_code : null
      const piece = typeof err.extra.piece === 'number' ? err.extra.piece : null
      if (err.code === 'SERIAL_ALREADY_LINKED' && code && parent && piece) {
        setConfirmMove({ code, parent, piece })
        return false
      }
      const missing = Array.isArray(err.extra.serials) ? err.extra.serials.filter((s): s is string => typeof s === 'string') : []
      if (err.code === 'SERIAL_NOT_IN_STOCK' && missing.length) {
        setConfirmStock({ serials: missing, extra })
        return false
      }
      showFieldError(err, piece, code)
      notifyError(e)
      return false
    } finally {
      setBusy(false)
    }
  }

  /** What a save wrote, piece by piece: "SN-001 ← B-1, B-2; SN-002 ← B-3" (the first few pieces). */
  function savedLinks(saved: BatchSerials['pieces']): string {
    const shown = saved.slice(0, 4).map((p) => (p.links.length ? `${p.code ?? p.piece} ← ${p.links.map((l) => l.code).join(', ')}` : `${p.code ?? p.piece}`))
    return saved.length > shown.length ? `${shown.join('; ')} …` : shown.join('; ')
  }

  /** Puts the server's message under the field it is about (the scanned code, or the piece's serial). */
  function showFieldError(err: ApiError, piece: number | null, code: string | null) {
    if (piece === null) return setFieldError(null)
    const d = current(piece)
    const slot = code ? Object.entries(d.slots).find(([, v]) => v.trim() === code)?.[0] : undefined
    const key = slot ? `${piece}:${slot}` : `${piece}:code`
    setFieldError({ key, message: errorMessage(err) })
    focus(key)
  }

  // A completion refused for a piece's serials: the first thing that piece lacks turns red, with the message.
  useSerialRefusals((err) => {
    const piece = err.extra.piece as number
    const d = current(piece)
    const emptyScan = orderOf(piece).find((key) => (key.endsWith(':code') ? d.code : (d.slots[key.slice(key.indexOf(':') + 1)] ?? '')).trim() === '')
    const emptyField = fields.find((f) => f.mandatory && isEmptyValue(d.data[f._key] ?? null))
    const key = emptyScan ?? (emptyField ? `${piece}:data:${emptyField._key}` : (orderOf(piece)[0] ?? `${piece}:code`))
    setFieldError({ key, message: errorMessage(err) })
    focus(key)
    // In the middle of the screen: the refusal comes from the step's bar, with the piece maybe under the sticky header.
    inputs.current.get(key)?.scrollIntoView({ block: 'center' })
  })

  /** Scanner or keyboard: Enter goes to the next field of the piece; on its last field it saves and goes on. */
  async function onEnter(e: KeyboardEvent<HTMLInputElement>, piece: number, key: string) {
    if (e.key !== 'Enter') return
    e.preventDefault()
    if (busy) return
    const order = orderOf(piece)
    const at = order.indexOf(key)
    if (at < order.length - 1) return focus(order[at + 1])
    if (await save([piece])) {
      const next = view.pieces.find((p) => p.piece > piece)
      if (next) focus(orderOf(next.piece)[0])
    }
  }

  const scanInput = (piece: number, key: string, label: string, value: string, onChange: (v: string) => void, testId: string) => {
    const full = `${piece}:${key}`
    return (
      <TextInput
        key={full}
        ref={(el) => {
          if (el) inputs.current.set(full, el)
          else inputs.current.delete(full)
        }}
        size="lg"
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => void onEnter(e, piece, full)}
        disabled={!editable}
        // Read-only, not disabled, while saving: a disabled field would lose the scanner's focus.
        readOnly={busy}
        error={fieldError?.key === full ? fieldError.message : undefined}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="next"
        maxLength={200}
        rightSection={editable && !busy ? <CameraScanButton target={() => inputs.current.get(full) ?? null} testId={`camera-${testId}`} /> : undefined}
        rightSectionPointerEvents="all"
        data-testid={testId}
        style={{ scrollMarginBottom: STICKY_ACTIONS_CLEARANCE }}
      />
    )
  }

  return (
    <Paper withBorder p="md" mt="md" data-testid="batch-serials">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={4}>
          <Trans>Seriali del lotto</Trans>
        </Title>
        <Badge size="lg" color={view.complete ? 'green.8' : 'orange'} data-testid="serials-declared">
          <Trans>
            {declared} di {view.qt_total} pezzi dichiarati
          </Trans>
        </Badge>
      </Group>
      {hasCounter ? (
        <Text size="sm" c="dimmed" mb="sm">
          <Trans>Il contatore «{view.counter_name}» numera i pezzi al primo salvataggio.</Trans>
        </Text>
      ) : (
        <Alert color="blue" mb="sm" data-testid="counter-not-defined">
          <Trans>Nessun contatore definito: inserisci il seriale a mano (o leggilo con lo scanner).</Trans>
        </Alert>
      )}
      <Stack gap="sm">
        {view.pieces.map((p) => {
          const d = current(p.piece)
          return (
            <Paper key={p.piece} withBorder p="sm" data-testid={`serial-piece-${p.piece}`} data-declared={p.declared || undefined}>
              <Group justify="space-between" mb={4}>
                <Text fw={700}>
                  <Trans>Pezzo {p.piece}</Trans>
                  {hasCounter && (
                    <Text span ff="monospace" ml="sm" data-testid={`serial-code-${p.piece}`}>
                      {p.code ?? t`(assegnato al salvataggio)`}
                    </Text>
                  )}
                </Text>
                {p.declared && (
                  <Badge color="green.8" variant="filled">
                    <Trans>Dichiarato</Trans>
                  </Badge>
                )}
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {!hasCounter &&
                  scanInput(p.piece, 'code', t`Seriale del pezzo`, d.code, (v) => edit(p.piece, (x) => ({ ...x, code: v })), `serial-code-input-${p.piece}`)}
                {view.components.flatMap((c, ci) =>
                  Array.from({ length: slotsOf(c, p.piece) }, (_, n) => {
                    const id = slotId(c.component_key, n)
                    const total = slotsOf(c, p.piece)
                    const name = c.item_description ? `${c.item_code} · ${c.item_description}` : c.item_code
                    const label = total > 1 ? `${name} (${n + 1}/${total})` : name
                    return scanInput(
                      p.piece,
                      id,
                      label,
                      d.slots[id] ?? '',
                      (v) => edit(p.piece, (x) => ({ ...x, slots: { ...x.slots, [id]: v } })),
                      `serial-scan-${p.piece}-${ci + 1}-${n + 1}`,
                    )
                  }),
                )}
              </SimpleGrid>
              {fields.length > 0 && (
                <Stack gap="xs" mt="sm">
                  {fields.map((f) => (
                    <FormFieldInput
                      key={f._key}
                      field={f}
                      value={d.data[f._key] ?? null}
                      onChange={(v) => edit(p.piece, (x) => ({ ...x, data: { ...x.data, [f._key]: v } }))}
                      disabled={!editable || busy}
                      error={fieldError?.key === `${p.piece}:data:${f._key}` ? fieldError.message : undefined}
                      batchKey={batchKey}
                    />
                  ))}
                </Stack>
              )}
            </Paper>
          )
        })}
      </Stack>
      {editable && (
        // Kept clear of the step's sticky "Conferma passo" bar below it (about 80 px) when scrolled or focused into view.
        <Group justify="flex-end" mt="sm" style={{ scrollMarginBottom: STICKY_ACTIONS_CLEARANCE }}>
          {dirty && (
            <Button size="lg" variant="default" disabled={busy} onClick={() => setDrafts({})} data-testid="serials-cancel">
              <Trans>Annulla</Trans>
            </Button>
          )}
          <Button
            size="lg"
            loading={busy}
            disabled={!dirty && !(hasCounter && view.pieces.some((p) => !p.serial_key))}
            onClick={() => void save()}
            data-testid="serials-save"
          >
            <Trans>Salva seriali</Trans>
          </Button>
        </Group>
      )}
      <Modal opened={confirmMove !== null} onClose={() => setConfirmMove(null)} title={t`Seriale già montato`} centered size="lg">
        {confirmMove && (
          <Stack>
            <Text size="lg" data-testid="confirm-move-text">
              <Trans>
                Il seriale {confirmMove.code} è dentro {confirmMove.parent}. Toglierlo da lì e montarlo nel pezzo {confirmMove.piece}?
              </Trans>
            </Text>
            <Group justify="flex-end">
              <Button size="lg" variant="default" onClick={() => setConfirmMove(null)} data-testid="confirm-move-cancel">
                <Trans>Annulla</Trans>
              </Button>
              <Button
                size="lg"
                color="orange"
                onClick={() => {
                  moves.current.add(confirmMove.code)
                  setConfirmMove(null)
                  void save([confirmMove.piece])
                }}
                data-testid="confirm-move"
              >
                <Trans>Sposta il seriale</Trans>
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal opened={confirmStock !== null} onClose={() => setConfirmStock(null)} title={t`Seriale non a magazzino`} centered size="lg">
        {confirmStock && (
          <Stack>
            <Text size="lg" data-testid="confirm-stock-text">
              <Trans>
                Questi seriali non sono in nessuna posizione di magazzino: {confirmStock.serials.join(', ')}. Collegarli comunque, senza movimenti di
                magazzino?
              </Trans>
            </Text>
            <Group justify="flex-end">
              <Button size="lg" variant="default" onClick={() => setConfirmStock(null)} data-testid="confirm-stock-cancel">
                <Trans>Annulla</Trans>
              </Button>
              <Button
                size="lg"
                color="orange"
                onClick={() => {
                  for (const code of confirmStock.serials) notInStock.current.add(code)
                  setConfirmStock(null)
                  void save(confirmStock.extra)
                }}
                data-testid="confirm-stock"
              >
                <Trans>Collega senza movimenti</Trans>
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  )
}
