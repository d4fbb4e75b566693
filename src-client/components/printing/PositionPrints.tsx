import { Trans } from '@lingui/react/macro'
import { PrintButton } from './PrintButton'

/** A warehouse position's label: the templates of context 'position' with its code, and the settings' position label. */
export function PositionPrints({ code }: { code: string }) {
  return <PrintButton context="position" contextKey={code} subject={{ position_code: code }} label={<Trans>Stampa etichetta</Trans>} testId="position-prints" />
}
