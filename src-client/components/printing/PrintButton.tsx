import { Trans } from '@lingui/react/macro'
import { Button } from '@mantine/core'
import { lazy, Suspense, useState } from 'react'
import type { PrintButtonProps } from './print-button-props'

const PrintDialog = lazy(() => import('./PrintDialog'))

/**
 * "Stampa": the templates of a place, filled on the server with what the screen shows, downloaded
 * as PDF or sent to a printer (the user's default one first). An unreachable printer is said at
 * once, with the PDF still to download. The dialog loads when first opened.
 */
export function PrintButton({ label, size = 'sm', testId = 'print-button', ...source }: PrintButtonProps) {
  const [opened, setOpened] = useState(false)
  return (
    <>
      <Button size={size} variant="default" onClick={() => setOpened(true)} data-testid={testId}>
        {label ?? <Trans>Stampe</Trans>}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <PrintDialog source={source} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  )
}
