import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import type { QueueMoveInput, WorkOrderListItem } from '../../../../../../src/domains/work-orders/schemas'
import { readNumberText } from '../../../../../../src/i18n/number-text'
import { NumberTextInput } from '../../../../../components/NumberTextInput'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { trpcClient } from '../../../../../lib/trpc'
import { invalidateWorkOrders } from '../../workorder/-workorder-ui'

/**
 * The row's menu: to the top, to the end, to position N of the whole site queue (not only of the
 * page; keyboard and touch reach it as well as the mouse). The server counts the place on the
 * queue as it is when the move runs; `onMoved` gets the place taken (to show its page).
 */
export function QueuePositionMenu({ wo, position, total, onMoved }: { wo: WorkOrderListItem; position: number; total: number; onMoved: (to: number) => void }) {
  const { t } = useLingui()
  const [asking, setAsking] = useState(false)
  const code = wo.code
  async function move(to: QueueMoveInput['position']) {
    try {
      const res = await trpcClient.workOrders.moveInQueue.mutate({ work_order_key: wo._key, position: to })
      const place = res.to
      notifySuccess(t`${code} spostato alla posizione ${place} della coda`)
      onMoved(res.to)
    } catch (e) {
      notifyError(e)
    } finally {
      await invalidateWorkOrders()
    }
  }
  return (
    <>
      <Menu position="bottom-end" withinPortal width={230}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t`Posizione in coda di ${code}`} data-testid="queue-position-menu">
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Trans>
              Posizione {position} di {total}
            </Trans>
          </Menu.Label>
          <Menu.Item disabled={position === 1} onClick={() => move(1)}>
            <Trans>In cima alla coda</Trans>
          </Menu.Item>
          <Menu.Item disabled={position === total} onClick={() => move('last')}>
            <Trans>In fondo alla coda</Trans>
          </Menu.Item>
          <Menu.Item onClick={() => setAsking(true)}>
            <Trans>Sposta alla posizione…</Trans>
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {asking && (
        <PositionDialog
          wo={wo}
          position={position}
          total={total}
          onClose={() => setAsking(false)}
          onConfirm={(to) => {
            setAsking(false)
            void move(to)
          }}
        />
      )}
    </>
  )
}

function PositionDialog({
  wo,
  position,
  total,
  onClose,
  onConfirm,
}: {
  wo: WorkOrderListItem
  position: number
  total: number
  onClose: () => void
  onConfirm: (to: number) => void
}) {
  const { t } = useLingui()
  const [text, setText] = useState('')
  const rules = { min: 1, max: total, integer: true }
  const reading = readNumberText(text, rules)
  const to = reading.ok ? reading.value : null
  const code = wo.code
  return (
    <Modal opened onClose={onClose} title={t`Sposta ${code} nella coda`} closeButtonProps={{ 'aria-label': t`Chiudi` }}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (to !== null) onConfirm(to)
        }}
      >
        <Stack>
          <Text size="sm">
            <Trans>
              Ora in posizione {position} di {total}.
            </Trans>
          </Text>
          <NumberTextInput label={t`Nuova posizione`} value={text} onChange={setText} {...rules} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Annulla</Trans>
            </Button>
            <Button type="submit" disabled={to === null}>
              <Trans>Sposta</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
