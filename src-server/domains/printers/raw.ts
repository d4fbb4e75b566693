import net from 'node:net'
import { PrinterUnreachable, type SendResult } from './ipp'

/**
 * Raw TCP printing (port 9100, "JetDirect"): connect, write the document, close. The printer has
 * accepted it when the whole document was written and the connection closed cleanly; a printer
 * that refuses the connection, resets it or stays silent past timeoutMs is unreachable.
 */
export function rawSend(opts: { host: string; port: number; document: Uint8Array; timeoutMs: number }): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    let settled = false
    const socket = net.createConnection({ host: opts.host, port: opts.port })
    const timer = setTimeout(() => fail(`no answer within ${opts.timeoutMs / 1000} s`), opts.timeoutMs)
    function fail(why: string) {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      reject(new PrinterUnreachable(why))
    }
    socket.once('error', (e) => fail(`connection failed (${e.message})`))
    socket.once('connect', () => {
      socket.end(opts.document, () => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ accepted: true, message: `${opts.document.length} bytes sent` })
        socket.destroy()
      })
    })
  })
}
