import { useLingui } from '@lingui/react/macro'
import { ActionIcon, type ActionIconProps } from '@mantine/core'
import { lazy, Suspense, useState } from 'react'
import { Hint } from '../floating/lazy'
import { typeLikeScanner } from './type-like-scanner'

// The dialog and the decoder (with its WebAssembly) load on the first press only: the operator's
// first load carries this button and nothing of the scanner.
const CameraScanDialog = lazy(() => import('./CameraScanDialog'))

type Props = {
  /** The code field: a read code is typed into it and Enter pressed, as a scanner does. */
  target: () => HTMLInputElement | null
  size?: ActionIconProps['size']
  disabled?: boolean
  testId?: string
}

/** "Leggi con la fotocamera" beside a code field, for tablets without a barcode scanner. */
export function CameraScanButton({ target, size = 'lg', disabled, testId = 'camera-scan' }: Props) {
  const { t } = useLingui()
  const [opened, setOpened] = useState(false)
  const label = t`Leggi con la fotocamera`
  return (
    <>
      <Hint label={label} wrapper={{ display: 'inline-flex' }}>
        <ActionIcon variant="subtle" color="gray" size={size} aria-label={label} disabled={disabled} onClick={() => setOpened(true)} data-testid={testId}>
          <CameraIcon />
        </ActionIcon>
      </Hint>
      {opened && (
        <Suspense fallback={null}>
          <CameraScanDialog
            onClose={() => setOpened(false)}
            onCode={(code) => {
              setOpened(false)
              const input = target()
              if (input) void typeLikeScanner(input, code)
            }}
          />
        </Suspense>
      )}
    </>
  )
}

function CameraIcon() {
  return (
    <svg width="70%" height="70%" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1z" />
      <circle cx="12" cy="14" r="3.5" />
    </svg>
  )
}
