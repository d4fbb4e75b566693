import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { ComingWith } from './-placeholder'

export const Route = createFileRoute('/app/production/workorder/$wo_key/traceability')({
  component: () => (
    <ComingWith title={<Trans>Tracciabilità</Trans>}>
      <Trans>Le matricole prodotte e i componenti usati da questo ordine di lavoro arriveranno con l'area Tracciabilità.</Trans>
    </ComingWith>
  ),
})
