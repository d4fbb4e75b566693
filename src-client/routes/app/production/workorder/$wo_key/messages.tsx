import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { ComingWith } from './-placeholder'

export const Route = createFileRoute('/app/production/workorder/$wo_key/messages')({
  component: () => (
    <ComingWith title={<Trans>Messaggi</Trans>}>
      <Trans>La conversazione legata a questo ordine di lavoro arriverà con l'area Qualità.</Trans>
    </ComingWith>
  ),
})
