import * as pdfjs from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { type RefObject, useEffect } from 'react'
import { notifyError } from '../../../../../lib/notify'

/**
 * Draws page 1 of a PDF (a URL served to the signed-in user, or bytes in hand) on the canvas at
 * `scale`, with pdf.js: the editor's base and the filled preview look the same, and a tablet
 * without a PDF viewer shows both.
 */
export function usePdfPage(canvas: RefObject<HTMLCanvasElement | null>, source: { url: string } | { data: Uint8Array } | null, scale: number) {
  useEffect(() => {
    if (!source) return
    let cancelled = false
    // Set here, not at module level: a top-level statement would keep pdf.js in the route tree's first load.
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl
    // pdf.js takes ownership of the bytes it is given: a copy keeps the caller's intact.
    const task = pdfjs.getDocument('url' in source ? { url: source.url, withCredentials: true } : { data: source.data.slice() })
    void task.promise
      .then(async (doc) => {
        const page = await doc.getPage(1)
        const viewport = page.getViewport({ scale })
        const c = canvas.current
        if (!c || cancelled) return
        c.width = viewport.width
        c.height = viewport.height
        await page.render({ canvas: c, canvasContext: c.getContext('2d')!, viewport }).promise
      })
      // Leaving the screen destroys the loading task: that rejection is no error for the user.
      .catch((e) => {
        if (!cancelled) notifyError(e)
      })
    return () => {
      cancelled = true
      void task.destroy()
    }
  }, [canvas, source, scale])
}
