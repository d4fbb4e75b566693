import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Checkbox, Group, SegmentedControl, SimpleGrid, Stack, Text, Textarea } from '@mantine/core'
import { useState } from 'react'
import { MOVEMENT_SIDES, MOVEMENT_TYPES, type MovementRow, type MovementType, QUANTITY_DECIMALS, QUANTITY_MAX, REASON_MAX, SERIAL_MAX } from '../../../src/domains/movements/schemas'
import { readNumberText } from '../../../src/i18n/number-text'
import { NumberTextInput } from '../NumberTextInput'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpcClient } from '../../lib/trpc'
import { MOVEMENT_TYPE_LABELS, movementName } from './labels'
import type { Picked } from './scan-group'
import { PositionScanInput, ProductScanInput } from './ScanInput'
import { useScanGroup } from './scan-group'
import { CameraTextInput } from '../scan/CameraTextInput'

const RULES = { min: 0, max: QUANTITY_MAX, decimals: QUANTITY_DECIMALS }
/** Types a person enters by hand here (production and consumption come from batch completion). */
const HAND_TYPES: MovementType[] = ['load', 'transfer', 'unload', 'adjustment']

/**
 * A new movement: type, product (code scanned or typed), from and/or to (as the type needs),
 * quantity (decimal comma or point), serial, reason; confirmed at once unless "only plan it".
 */
export function MovementForm({ initial, onDone }: { initial?: { type?: MovementType; from?: Picked | null; to?: Picked | null }; onDone: (m: MovementRow) => void }) {
  const { t, i18n } = useLingui()
  const [type, setType] = useState<MovementType>(initial?.type ?? 'load')
  const [product, setProduct] = useState<Picked | null>(null)
  const [from, setFrom] = useState<Picked | null>(initial?.from ?? null)
  const [to, setTo] = useState<Picked | null>(initial?.to ?? null)
  const [quantity, setQuantity] = useState('')
  const [serial, setSerial] = useState('')
  const [reason, setReason] = useState('')
  const [planOnly, setPlanOnly] = useState(false)
  const [tried, setTried] = useState(false)
  const [saving, setSaving] = useState(false)
  const scans = useScanGroup()
  const side = MOVEMENT_SIDES[type]
  const needsFrom = side === 'from' || side === 'both'
  const needsTo = side === 'to' || side === 'both'
  const q = readNumberText(quantity, { ...RULES, required: true })
  const qPositive = q.ok && (q.value ?? 0) > 0
  /** What is wrong with the form, with the code fields as given (the state, or what a submit just read from them). */
  const errorsOf = (product: Picked | null, from: Picked | null, to: Picked | null) => ({
    product: !product ? t`Indica il prodotto` : null,
    from: needsFrom && !from ? t`Indica la posizione di partenza` : null,
    to: needsTo && !to ? t`Indica la posizione di arrivo` : null,
    sides: side === 'one' && Boolean(from) === Boolean(to) ? t`Una rettifica ha solo la partenza (toglie) o solo l'arrivo (aggiunge)` : null,
    quantity: q.ok && !qPositive ? t`La quantità deve essere maggiore di 0` : quantity.trim() === '' ? t`Indica la quantità` : null,
    reason: type === 'adjustment' && !reason.trim() ? t`Indica il motivo` : null,
  })
  const errors = errorsOf(product, from, to)
  const valid = Object.values(errors).every((e) => e === null) && q.ok

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    const picked = await scans.settle()
    if (!picked) return
    const [p, f, tt] = [picked.product ?? null, picked.from ?? null, picked.to ?? null]
    if (!Object.values(errorsOf(p, f, tt)).every((x) => x === null) || !q.ok || !p) return
    setSaving(true)
    try {
      const m = await trpcClient.movements.create.mutate({
        product_key: p._key,
        type,
        from_position_key: side === 'to' ? null : (f?._key ?? null),
        to_position_key: side === 'from' ? null : (tt?._key ?? null),
        quantity: q.ok ? (q.value ?? 0) : 0,
        serial: serial.trim() || null,
        reason: reason.trim() || undefined,
        confirm: !planOnly,
      })
      await queryClient.invalidateQueries()
      notifySuccess(planOnly ? t`Movimento ${movementName(m.number)} pianificato` : t`Movimento ${movementName(m.number)} registrato`)
      onDone(m)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  const shown = (k: keyof typeof errors) => (tried ? errors[k] : null)

  return (
    <form onSubmit={submit} data-testid="movement-form">
      <Stack maw={900}>
        <SegmentedControl
          value={type}
          onChange={(v) => setType(v as MovementType)}
          data={(HAND_TYPES.includes(type) ? HAND_TYPES : MOVEMENT_TYPES).map((v) => ({ value: v, label: i18n._(MOVEMENT_TYPE_LABELS[v]) }))}
          data-testid="movement-type"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ProductScanInput label={t`Codice prodotto`} placeholder={t`Scansiona o scrivi il codice`} value={product} onChange={setProduct} error={shown('product')} group={scans} name="product" data-testid="movement-product" />
          <CameraTextInput label={t`Seriale`} value={serial} maxLength={SERIAL_MAX} onChange={(e) => setSerial(e.currentTarget.value)} data-testid="movement-serial" />
          {side !== 'to' && (
            <PositionScanInput
              label={side === 'one' ? t`Da (toglie)` : t`Da posizione`}
              placeholder={t`Scansiona o scrivi il codice`}
              value={from}
              onChange={setFrom}
              group={scans}
              name="from"
              error={shown('from') ?? shown('sides')}
              data-testid="movement-from"
            />
          )}
          {side !== 'from' && (
            <PositionScanInput
              label={side === 'one' ? t`A (aggiunge)` : t`A posizione`}
              placeholder={t`Scansiona o scrivi il codice`}
              value={to}
              onChange={setTo}
              group={scans}
              name="to"
              error={shown('to') ?? (side === 'one' ? shown('sides') : null)}
              data-testid="movement-to"
            />
          )}
          <NumberTextInput label={t`Quantità`} {...RULES} value={quantity} onChange={setQuantity} error={shown('quantity') ?? undefined} data-testid="movement-quantity" />
        </SimpleGrid>
        <Textarea
          label={type === 'adjustment' ? t`Motivo` : t`Nota`}
          withAsterisk={type === 'adjustment'}
          autosize
          minRows={1}
          maxLength={REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={shown('reason')}
          data-testid="movement-reason"
        />
        <Checkbox label={t`Solo pianificato (la giacenza cambia alla conferma)`} checked={planOnly} onChange={(e) => setPlanOnly(e.currentTarget.checked)} />
        {tried && !valid && (
          <Text c="red" size="sm">
            <Trans>Completa i campi segnati.</Trans>
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={saving} data-testid="movement-save">
            {planOnly ? <Trans>Pianifica</Trans> : <Trans>Registra il movimento</Trans>}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
