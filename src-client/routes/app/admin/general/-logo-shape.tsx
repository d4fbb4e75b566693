import { Trans } from '@lingui/react/macro'
import { Alert } from '@mantine/core'
import { useEffect, useState } from 'react'

export type ImageShape = { state: 'reading' } | { state: 'read'; width: number; height: number } | { state: 'unreadable' }

/**
 * The chosen image's natural size, read by the browser before upload: a logo that is not square
 * (SPEC 5) is said so at once instead of after the upload. An image the browser cannot decode is
 * left to the server, which has the last word either way.
 */
export function useImageShape(url: string | null): ImageShape | null {
  const [shape, setShape] = useState<ImageShape | null>(null)
  useEffect(() => {
    if (!url) return setShape(null)
    setShape({ state: 'reading' })
    let current = true
    const img = new Image()
    img.onload = () => current && setShape({ state: 'read', width: img.naturalWidth, height: img.naturalHeight })
    img.onerror = () => current && setShape({ state: 'unreadable' })
    img.src = url
    return () => {
      current = false
    }
  }, [url])
  return shape
}

export const isNotSquare = (shape: ImageShape | null) => shape?.state === 'read' && shape.width !== shape.height

export function NotSquareNotice({ width, height }: { width: number; height: number }) {
  return (
    <Alert color="red" title={<Trans>Immagine non quadrata</Trans>} data-testid="logo-not-square">
      <Trans>
        L'immagine misura {width}×{height} pixel: il logo deve essere quadrato (proporzioni 1:1) e questa verrebbe rifiutata.
        Scegli un'altra immagine.
      </Trans>
    </Alert>
  )
}
