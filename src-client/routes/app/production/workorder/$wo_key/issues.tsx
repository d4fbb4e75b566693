import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { ComingWith } from './-placeholder'

export const Route = createFileRoute('/app/production/workorder/$wo_key/issues')({
  component: () => (
    <ComingWith title={<Trans>Segnalazioni</Trans>}>
      <Trans>Le segnalazioni di qualità aperte su questo ordine di lavoro e sui suoi job arriveranno con l'area Qualità.</Trans>
    </ComingWith>
  ),
})
