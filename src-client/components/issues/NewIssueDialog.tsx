import { useLingui } from '@lingui/react/macro'
import { Modal, SegmentedControl, Stack } from '@mantine/core'
import { useState } from 'react'
import type { IssueDetail } from '../../../src/domains/issues/schemas'
import { type PickedProduct, ProductPicker } from '../process/ProductPicker'
import { type IssueContextInput, IssueForm } from './IssueForm'

/**
 * A new issue in a dialog. With a fixed context (a work order's tab) it is opened there; without
 * one (the quality area) the user chooses a generic issue or one on a product.
 */
export function NewIssueDialog({ opened, onClose, onCreated, context }: {
  opened: boolean
  onClose: () => void
  onCreated: (issue: IssueDetail) => void
  context?: IssueContextInput
}) {
  const { t } = useLingui()
  return (
    <Modal opened={opened} onClose={onClose} title={t`Nuova segnalazione`} size="lg" centered closeOnClickOutside={false}>
      {opened && (context ? <IssueForm context={context} onDone={onCreated} onCancel={onClose} /> : <WithContextChoice onDone={onCreated} onCancel={onClose} />)}
    </Modal>
  )
}

function WithContextChoice({ onDone, onCancel }: { onDone: (issue: IssueDetail) => void; onCancel: () => void }) {
  const { t } = useLingui()
  const [kind, setKind] = useState<'generic' | 'product'>('generic')
  const [product, setProduct] = useState<PickedProduct | null>(null)
  const [missing, setMissing] = useState(false)
  const contextField = (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t`Contesto`}
        value={kind}
        onChange={(v) => setKind(v as 'generic' | 'product')}
        data={[
          { value: 'generic', label: t`Generale` },
          { value: 'product', label: t`Su un prodotto` },
        ]}
      />
      {kind === 'product' && (
        <ProductPicker
          label={t`Prodotto`}
          value={product}
          onChange={(p) => {
            setProduct(p)
            setMissing(false)
          }}
          error={missing ? t`Scegli un prodotto` : undefined}
        />
      )}
    </Stack>
  )
  return (
    <IssueForm
      context={kind === 'product' && product ? { product_key: product._key } : {}}
      contextField={contextField}
      validateContext={() => {
        const ok = kind === 'generic' || product !== null
        setMissing(!ok)
        return ok
      }}
      onDone={onDone}
      onCancel={onCancel}
    />
  )
}
