import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { REVISION_REASON_MAX, type RevisionList } from '../../../src/domains/revisions/schemas'
import { Confirm } from '../products/ProductCards'
import { ReasonDialog } from '../ReasonDialog'
import { useActionSignature } from '../signatures/ActionSignature'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../lib/trpc'

/** After a release or a discard the process, the bom and the revision list all change. */
async function revisionsChanged(productKey: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.process.get.queryKey({ key: productKey }) }),
    queryClient.invalidateQueries({ queryKey: trpc.bom.get.queryKey({ key: productKey }) }),
  ])
}

/** Library edits touch the draft only: the screens saving the process or the bom call this. */
export const draftChanged = () => queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() })

/** "Bozza" while the draft differs from the latest revision, else "Rilasciata rev N" (issue 21). */
export function RevisionBadge({ list }: { list: RevisionList }) {
  const latest = list.revisions[0]
  if (list.draft_changed || !latest)
    return (
      <Badge color="orange" variant="light" size="lg" data-testid="revision-badge">
        <Trans>Bozza</Trans>
      </Badge>
    )
  return (
    <Badge color="teal" variant="light" size="lg" data-testid="revision-badge">
      <Trans>Rilasciata rev {latest.number}</Trans>
    </Badge>
  )
}

/** Under a product's header: its revision state, and releasing or discarding the draft. */
export function RevisionBar({ productKey, readOnly }: { productKey: string; readOnly: boolean }) {
  const { t } = useLingui()
  const { data } = useQuery(trpc.revisions.list.queryOptions({ key: productKey }))
  const [releasing, setReleasing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [discarding, setDiscarding] = useState(false)
  if (!data) return null
  const hasRevision = data.revisions.length > 0
  async function discard() {
    setDiscarding(true)
    try {
      await trpcClient.revisions.discardDraft.mutate({ key: productKey })
      await revisionsChanged(productKey)
      notifySuccess(t`Bozza scartata`)
    } catch (e) {
      notifyError(e)
    } finally {
      setDiscarding(false)
      setConfirming(false)
    }
  }
  return (
    <Group gap="sm" mb="xs" data-testid="revision-bar">
      <RevisionBadge list={data} />
      {data.draft_changed && !readOnly && (
        <>
          <Button size="compact-sm" onClick={() => setReleasing(true)} data-testid="release-open">
            <Trans>Rilascia</Trans>
          </Button>
          {hasRevision && (
            <Button size="compact-sm" variant="default" color="red" onClick={() => setConfirming(true)} data-testid="discard-open">
              <Trans>Scarta bozza</Trans>
            </Button>
          )}
        </>
      )}
      <Confirm
        opened={confirming}
        title={<Trans>Scartare la bozza?</Trans>}
        confirmLabel={<Trans>Scarta bozza</Trans>}
        color="red"
        busy={discarding}
        onConfirm={() => void discard()}
        onCancel={() => setConfirming(false)}
      >
        <Trans>Processo e distinta base tornano come nell'ultima revisione rilasciata; le modifiche della bozza vanno perse.</Trans>
      </Confirm>
      {releasing && <ReleaseDialog productKey={productKey} next={(data.revisions[0]?.number ?? 0) + 1} onClose={() => setReleasing(false)} />}
    </Group>
  )
}

function ReleaseDialog({ productKey, next, onClose }: { productKey: string; next: number; onClose: () => void }) {
  const { t } = useLingui()
  const signature = useActionSignature('revision_release')
  const product = useQuery(trpc.products.get.queryOptions({ key: productKey }))
  const code = product.data?.code ?? ''
  return (
    <ReasonDialog
      title={t`Rilascia la revisione ${next}`}
      explanation={<Trans>Processo e distinta base della bozza diventano una revisione che non cambia più: i nuovi ordini di lavoro la useranno.</Trans>}
      maxLength={REVISION_REASON_MAX}
      confirmLabel={<Trans>Rilascia</Trans>}
      testId="release"
      signature={{ state: signature, what: t`Revisione ${next} del prodotto ${code}: processo e distinta base della bozza` }}
      act={async (reason) => {
        const released = await trpcClient.revisions.release.mutate({ key: productKey, reason, signature: signature.input() })
        await revisionsChanged(productKey)
        notifySuccess(t`Rilasciata la revisione ${released.number}`)
      }}
      onClose={onClose}
    />
  )
}
