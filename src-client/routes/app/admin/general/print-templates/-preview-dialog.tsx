import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Paper, Stack } from '@mantine/core'
import { useEffect, useMemo, useRef } from 'react'
import { trpcClient } from '../../../../../lib/trpc'
import { usePdfPage } from './-pdf-page'

/** A template filled with sample values, as PDF bytes. */
export async function previewPdf(key: string): Promise<Uint8Array> {
  const { pdf_base64 } = await trpcClient.printTemplates.preview.mutate({ key })
  return Uint8Array.from(atob(pdf_base64), (c) => c.charCodeAt(0))
}

/** The saved template filled with sample values, page 1 drawn as it will print; the whole PDF one click away. */
export function PreviewDialog({ pdf, name, onClose }: { pdf: Uint8Array; name: string; onClose: () => void }) {
  const { t } = useLingui()
  const canvas = useRef<HTMLCanvasElement>(null)
  const source = useMemo(() => ({ data: pdf }), [pdf])
  usePdfPage(canvas, source, 1.5)
  const url = useMemo(() => URL.createObjectURL(new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' })), [pdf])
  useEffect(() => () => URL.revokeObjectURL(url), [url])
  return (
    <Modal opened onClose={onClose} title={t`Anteprima di ${name} (valori di esempio)`} size="auto" centered>
      <Stack>
        <Paper withBorder style={{ overflow: 'auto', maxHeight: '70vh' }}>
          <canvas ref={canvas} data-testid="preview-canvas" style={{ display: 'block', maxWidth: '100%' }} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" component="a" href={url} download={`${name}-anteprima.pdf`}>
            <Trans>Scarica il PDF</Trans>
          </Button>
          <Button onClick={onClose}>
            <Trans>Chiudi</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

