import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Box, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { createCodeReader } from './barcode-reader'

/** Frames are read this often: quick enough for a hand-held label, light on a tablet's CPU. */
const READ_EVERY_MS = 150

type Props = { onCode: (code: string) => void; onClose: () => void }

/**
 * The camera's picture and the code it reads (QR, Code 128, DataMatrix, EAN-13). The first code
 * read closes the dialog and goes to the field. The back camera is preferred (a tablet held over
 * a label). No camera, a refused permission or an insecure page are said in words, with the way out.
 */
export default function CameraScanDialog({ onCode, onClose }: Props) {
  const { t } = useLingui()
  const video = useRef<HTMLVideoElement>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [reading, setReading] = useState(false)
  const done = useRef(onCode)
  done.current = onCode

  useEffect(() => {
    let stopped = false
    let stream: MediaStream | null = null
    const stop = () => stream?.getTracks().forEach((track) => track.stop())
    void (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem(window.isSecureContext ? t`Questo browser non permette di usare la fotocamera.` : t`La fotocamera si può usare solo su una connessione sicura (https).`)
        return
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      } catch (e) {
        if (!stopped) setProblem(cameraProblem(e))
        return
      }
      if (stopped) return stop()
      const el = video.current!
      el.srcObject = stream
      await el.play().catch(() => undefined)
      let reader
      try {
        reader = await createCodeReader()
      } catch {
        stop()
        if (!stopped) setProblem(t`Impossibile avviare il lettore di codici: ricarica la pagina e riprova.`)
        return
      }
      if (!stopped) setReading(true)
      while (!stopped) {
        if (el.readyState >= el.HAVE_CURRENT_DATA) {
          const codes = await reader.detect(el).catch(() => [])
          const code = codes.find((c) => c.rawValue.trim())?.rawValue.trim()
          if (code && !stopped) {
            stopped = true
            stop()
            done.current(code)
            return
          }
        }
        await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS))
      }
    })()
    return () => {
      stopped = true
      stop()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  function cameraProblem(e: unknown): string {
    const name = e instanceof DOMException ? e.name : ''
    if (name === 'NotAllowedError' || name === 'SecurityError') {
      return t`Accesso alla fotocamera negato. Consentilo nelle impostazioni del browser per questo sito, oppure scrivi il codice.`
    }
    if (name === 'NotFoundError' || name === 'OverconstrainedError') return t`Nessuna fotocamera trovata su questo dispositivo. Scrivi il codice o usa lo scanner.`
    if (name === 'NotReadableError' || name === 'AbortError') return t`La fotocamera è già in uso da un'altra applicazione: chiudila e riprova.`
    return t`Impossibile usare la fotocamera: ${e instanceof Error ? e.message : String(e)}`
  }

  return (
    <Modal opened onClose={onClose} title={t`Leggi un codice con la fotocamera`} size="lg" returnFocus={false} data-testid="camera-scan-dialog">
      <Stack>
        {problem ? (
          <Alert color="red" data-testid="camera-problem">
            {problem}
          </Alert>
        ) : (
          <>
            <Box pos="relative" bg="black" style={{ borderRadius: 8, overflow: 'hidden', aspectRatio: '4 / 3' }}>
              <video ref={video} muted playsInline style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} data-testid="camera-video" />
            </Box>
            <Group gap="xs">
              {!reading && <Loader size="xs" />}
              <Text size="sm" c="dimmed" data-testid="camera-status">
                {reading ? <Trans>Inquadra il codice: si legge da solo (QR, Code 128, DataMatrix, EAN-13).</Trans> : <Trans>Avvio della fotocamera…</Trans>}
              </Text>
            </Group>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Chiudi</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
