import { useLingui } from '@lingui/react/macro'
import { Badge } from '@mantine/core'
import type { SerialState } from '../../../src/domains/serials/schemas'

/** Temporary while the batch that declared it is open, final once the batch is completed. */
export function SerialStateBadge({ state }: { state: SerialState }) {
  const { t } = useLingui()
  return state === 'final' ? (
    <Badge variant="light" color="green">{t`Definitivo`}</Badge>
  ) : (
    <Badge variant="light" color="yellow">{t`Provvisorio`}</Badge>
  )
}
