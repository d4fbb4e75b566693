import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Checkbox, Group, Modal, Stack, Table, Text, Textarea } from '@mantine/core'
import { useState } from 'react'
import type { InventoryLine } from '../../../src/domains/movements/schemas'
import { QUANTITY_DECIMALS, QUANTITY_MAX, REASON_MAX } from '../../../src/domains/movements/schemas'
import { readNumberText } from '../../../src/i18n/number-text'
import { NumberTextInput, toNumberText } from '../NumberTextInput'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpcClient } from '../../lib/trpc'
import { formatQuantity } from './labels'
import type { Picked } from './scan-group'
import { ProductScanInput } from './ScanInput'
import { useScanGroup } from './scan-group'
import { CameraTextInput } from '../scan/CameraTextInput'

type Line = { id: number; product: Picked | null; serial: string; owned: boolean; expected: number | null; counted: string }
const RULES = { min: 0, max: QUANTITY_MAX, decimals: QUANTITY_DECIMALS }

/**
 * Inventory count of one position (itself): the lines it holds, with what was found typed next to
 * each, plus lines for products found that were not expected. Differences become adjustments.
 */
export function CountDialog({ positionKey, positionCode, lines: held, onClose }: { positionKey: string; positionCode: string; lines: InventoryLine[]; onClose: () => void }) {
  const { t } = useLingui()
  let seq = 0
  const [lines, setLines] = useState<Line[]>(() =>
    held.map((l) => ({
      id: seq++,
      product: { _key: l.product_key, code: l.product_code, description: l.product_description },
      serial: l.serial ?? '',
      owned: l.owned,
      expected: l.quantity,
      counted: toNumberText(l.quantity),
    })),
  )
  const [reason, setReason] = useState('')
  const [tried, setTried] = useState(false)
  const [saving, setSaving] = useState(false)
  const scans = useScanGroup()
  const set = (id: number, patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.id === id ? { ...l, ...patch } : l)))
  const readings = lines.map((l) => readNumberText(l.counted, { ...RULES, required: true }))

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    const picked = await scans.settle()
    if (!picked) return
    const products = lines.map((l) => (l.expected === null ? (picked[`product-${l.id}`] ?? null) : l.product))
    if (reason.trim() === '' || !lines.every((_, i) => products[i] && readings[i]!.ok)) return
    setSaving(true)
    try {
      const res = await trpcClient.positions.count.mutate({
        key: positionKey,
        reason: reason.trim(),
        lines: lines.map((l, i) => {
          const r = readings[i]!
          return { product_key: products[i]!._key, serial: l.serial.trim() || null, owned: l.owned, quantity: r.ok ? (r.value ?? 0) : 0 }
        }),
      })
      await queryClient.invalidateQueries()
      notifySuccess(
        res.movements.length
          ? plural(res.movements.length, { one: 'Conteggio registrato: # rettifica', other: 'Conteggio registrato: # rettifiche' })
          : t`Conteggio registrato: nessuna differenza`,
      )
      onClose()
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Modal opened onClose={onClose} title={t`Conta la posizione ${positionCode}`} size="xl" centered>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            <Trans>Scrivi quanto hai trovato. Le righe non contate valgono 0; ogni differenza diventa una rettifica con il motivo.</Trans>
          </Text>
          <Table.ScrollContainer minWidth={700}>
            <Table data-testid="count-lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Prodotto`}</Table.Th>
                  <Table.Th>{t`Seriale`}</Table.Th>
                  <Table.Th>{t`Di proprietà`}</Table.Th>
                  <Table.Th ta="right">{t`Attesa`}</Table.Th>
                  <Table.Th>{t`Contata`}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map((l, i) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>
                      {l.expected === null ? (
                        <ProductScanInput
                          aria-label={t`Codice prodotto`}
                          value={l.product}
                          onChange={(product) => set(l.id, { product })}
                          error={tried && !l.product ? t`Indica il prodotto` : null}
                          group={scans}
                          name={`product-${l.id}`}
                          data-testid="count-product"
                        />
                      ) : (
                        <Text size="sm" fw={600}>
                          {l.product?.code}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {l.expected === null ? (
                        <CameraTextInput aria-label={t`Seriale`} value={l.serial} onChange={(e) => set(l.id, { serial: e.currentTarget.value })} w={140} />
                      ) : (
                        l.serial
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Checkbox
                        aria-label={t`Di proprietà`}
                        checked={l.owned}
                        disabled={l.expected !== null}
                        onChange={(e) => set(l.id, { owned: e.currentTarget.checked })}
                      />
                    </Table.Td>
                    <Table.Td ta="right">{formatQuantity(l.expected)}</Table.Td>
                    <Table.Td>
                      <NumberTextInput
                        aria-label={t`Quantità contata ${l.product?.code ?? ''}`}
                        {...RULES}
                        value={l.counted}
                        onChange={(counted) => set(l.id, { counted })}
                        error={tried && !readings[i]!.ok && l.counted === '' ? t`Indica la quantità` : undefined}
                        w={130}
                        data-testid="count-quantity"
                      />
                    </Table.Td>
                    <Table.Td>
                      {l.expected === null && (
                        <ActionIcon variant="subtle" color="red" aria-label={t`Togli la riga`} onClick={() => setLines((ls) => ls.filter((x) => x.id !== l.id))}>
                          ×
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group>
            <Button
              variant="light"
              onClick={() => setLines((ls) => [...ls, { id: Math.max(0, ...ls.map((x) => x.id)) + 1, product: null, serial: '', owned: true, expected: null, counted: '' }])}
              data-testid="count-add-line"
            >
              <Trans>Aggiungi un prodotto trovato</Trans>
            </Button>
          </Group>
          <Textarea
            label={t`Motivo`}
            withAsterisk
            autosize
            minRows={2}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={tried && !reason.trim() ? t`Indica il motivo` : undefined}
            data-testid="count-reason"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Annulla</Trans>
            </Button>
            <Button type="submit" loading={saving} data-testid="count-save">
              <Trans>Registra il conteggio</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
