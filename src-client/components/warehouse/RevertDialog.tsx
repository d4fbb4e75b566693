import { Trans, useLingui } from '@lingui/react/macro'
import { REASON_MAX } from '../../../src/domains/movements/schemas'
import { notifySuccess } from '../../lib/notify'
import { queryClient, trpcClient } from '../../lib/trpc'
import { ReasonDialog } from '../ReasonDialog'
import { useActionSignature } from '../signatures/ActionSignature'

/** SPEC 4: a movement is reverted with a reason; the opposite movement is written. */
export function RevertDialog({ movementKey, name, onClose }: { movementKey: string; name: string; onClose: () => void }) {
  const { t } = useLingui()
  const signature = useActionSignature('movement_revert')
  return (
    <ReasonDialog
      title={t`Storna il movimento ${name}`}
      explanation={<Trans>Viene registrato il movimento opposto e questo movimento resta segnato come stornato.</Trans>}
      maxLength={REASON_MAX}
      confirmLabel={<Trans>Storna</Trans>}
      color="orange"
      testId="revert"
      signature={{ state: signature, what: t`Storno del movimento ${name}` }}
      act={async (reason) => {
        await trpcClient.movements.revert.mutate({ key: movementKey, reason, signature: signature.input() })
        await queryClient.invalidateQueries()
        notifySuccess(t`Movimento stornato`)
      }}
      onClose={onClose}
    />
  )
}
