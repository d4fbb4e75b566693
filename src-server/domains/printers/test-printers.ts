import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * Real printers for tests: `ippeveprinter` (Debian cups-ipp-utils) on a free 127.0.0.1 port with
 * its own spool directory, and a raw TCP listener that keeps the bytes it receives. ippeveprinter
 * insists on DNS-SD; a private D-Bus bus (dbus-daemon) lets it start, and `-r off` keeps it from
 * registering anything.
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

async function waitForPort(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.createConnection({ host: '127.0.0.1', port })
      s.once('connect', () => (s.destroy(), resolve(true)))
      s.once('error', () => resolve(false))
    })
    if (ok) return true
    await Bun.sleep(100)
  }
  return false
}

export type IppPrinter = {
  port: number
  spool: string
  /** Spooled documents (full paths), oldest first. */
  documents: () => string[]
  /** Waits until `count` documents are spooled; their paths. */
  waitForDocuments: (count: number, ms?: number) => Promise<string[]>
  stop: () => Promise<void>
}

export async function startIppPrinter(name = 'MES Test Printer'): Promise<IppPrinter> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mes-ipp-'))
  const spool = path.join(dir, 'spool')
  mkdirSync(spool)
  const busPath = path.join(dir, 'bus')
  const dbus = Bun.spawn(['dbus-daemon', '--session', `--address=unix:path=${busPath}`, '--nofork', '--nopidfile'], { stdout: 'ignore', stderr: 'ignore' })
  for (let i = 0; i < 50 && !(await Bun.file(busPath).exists()); i++) await Bun.sleep(50)
  const port = await freePort()
  // -K: where it makes its self-signed certificate, so the same port answers ipps:// (TLS) too.
  const keys = path.join(dir, 'keys')
  mkdirSync(keys)
  const ipp = Bun.spawn(['ippeveprinter', '-p', String(port), '-n', 'localhost', '-d', spool, '-K', keys, '-k', '-r', 'off', '-c', '/bin/true', '-f', 'application/pdf', name], {
    env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${busPath}` },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if (!(await waitForPort(port, 10_000))) {
    ipp.kill()
    dbus.kill()
    const err = await new Response(ipp.stderr).text()
    throw new Error(`ippeveprinter did not start on port ${port}: ${err}`)
  }
  const documents = () => {
    try {
      return readdirSync(spool)
        .filter((f) => f.endsWith('.pdf'))
        .map((f) => path.join(spool, f))
        .sort((a, b) => Number(path.basename(a).split('-')[0]) - Number(path.basename(b).split('-')[0]))
    } catch {
      return []
    }
  }
  return {
    port,
    spool,
    documents,
    async waitForDocuments(count, ms = 10_000) {
      const until = Date.now() + ms
      while (Date.now() < until) {
        const docs = documents()
        if (docs.length >= count) return docs
        await Bun.sleep(100)
      }
      throw new Error(`expected ${count} spooled documents, found ${documents().length}`)
    },
    async stop() {
      ipp.kill()
      dbus.kill()
      await Promise.all([ipp.exited, dbus.exited])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export type RawListener = { port: number; received: () => Uint8Array[]; waitFor: (count: number, ms?: number) => Promise<Uint8Array[]>; stop: () => Promise<void> }

/** A raw TCP (9100-style) printer: each connection's bytes, once the sender closes it. */
export async function startRawListener(): Promise<RawListener> {
  const got: Uint8Array[] = []
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(Buffer.from(c)))
    socket.on('end', () => {
      got.push(new Uint8Array(Buffer.concat(chunks)))
      socket.end()
    })
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    port,
    received: () => got,
    async waitFor(count, ms = 5000) {
      const until = Date.now() + ms
      while (Date.now() < until && got.length < count) await Bun.sleep(50)
      return got
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A listener that accepts connections and never answers (a printer that hangs). */
export async function startSilentListener(): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets: net.Socket[] = []
  const server = net.createServer((s) => {
    sockets.push(s)
    s.on('error', () => {})
    s.pause()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** The text of a PDF (pdftotext, poppler-utils). */
export async function pdfText(file: string | Uint8Array): Promise<string> {
  const input = typeof file === 'string' ? readFileSync(file) : file
  const proc = Bun.spawn(['pdftotext', '-layout', '-', '-'], { stdin: input, stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`pdftotext failed: ${await new Response(proc.stderr).text()}`)
  return out
}

/**
 * Barcodes read back from a PDF's pages: zbarimg (QR, Code 128, EAN-13) and dmtxread (DataMatrix,
 * on the page area `datamatrixBox` in points from the top-left corner: dmtxread is slow and easily
 * confused by other symbols on a whole page).
 */
export async function decodeBarcodes(pdf: Uint8Array, datamatrixBox?: { x: number; y: number; width: number; height: number }): Promise<{ zbar: string[]; datamatrix: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mes-barcodes-'))
  try {
    const pdfPath = path.join(dir, 'doc.pdf')
    await Bun.write(pdfPath, pdf)
    const raster = Bun.spawn(['pdftoppm', '-r', '150', '-png', pdfPath, path.join(dir, 'page')], { stdout: 'ignore', stderr: 'pipe' })
    if ((await raster.exited) !== 0) throw new Error(`pdftoppm failed: ${await new Response(raster.stderr).text()}`)
    const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => path.join(dir, f))
    const zbar: string[] = []
    const datamatrix: string[] = []
    for (const page of pages) {
      const z = Bun.spawn(['zbarimg', '-q', page], { stdout: 'pipe', stderr: 'ignore' })
      zbar.push(...(await new Response(z.stdout).text()).split('\n').filter(Boolean))
      await z.exited
    }
    if (datamatrixBox) {
      const k = 150 / 72
      const crop = Bun.spawn(
        ['pdftoppm', '-r', '150', '-png', '-f', '1', '-l', '1', '-x', String(Math.floor(datamatrixBox.x * k)), '-y', String(Math.floor(datamatrixBox.y * k)), '-W', String(Math.ceil(datamatrixBox.width * k)), '-H', String(Math.ceil(datamatrixBox.height * k)), pdfPath, path.join(dir, 'dm')],
        { stdout: 'ignore', stderr: 'ignore' },
      )
      await crop.exited
      const file = readdirSync(dir).find((f) => f.startsWith('dm') && f.endsWith('.png'))!
      const d = Bun.spawn(['dmtxread', '-m', '5000', '-N', '1', path.join(dir, file)], { stdout: 'pipe', stderr: 'ignore' })
      datamatrix.push(...(await new Response(d.stdout).text()).split('\n').filter(Boolean))
      await d.exited
    }
    return { zbar, datamatrix }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A small base PDF (pdf-lib) with a line of text on each page. */
export async function makeBasePdf(opts: { width?: number; height?: number; pages?: number; text?: string } = {}): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('@pdfme/pdf-lib')
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let i = 0; i < (opts.pages ?? 1); i++) {
    const page = doc.addPage([opts.width ?? 300, opts.height ?? 200])
    page.drawText(`${opts.text ?? 'ETICHETTA BASE'} ${i + 1}`, { x: 8, y: (opts.height ?? 200) - 14, size: 9, font })
  }
  return doc.save()
}
