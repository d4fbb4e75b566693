// The decoder's WebAssembly, bundled with the app as a hashed asset: plants may have no internet,
// so it is never fetched from the polyfill's default CDN. zxing-wasm is pinned to the version
// barcode-detector bundles (barcode-reader.test.ts checks the file's SHA-256 against it).
import zxingReaderWasm from 'zxing-wasm/reader/zxing_reader.wasm?url'

/** What the camera reads: the traveller's QR, serial and position labels (Code 128, DataMatrix), product EAN-13. */
export const SCANNED_FORMATS = ['qr_code', 'code_128', 'data_matrix', 'ean_13'] as const

export type CodeReader = { detect: (source: HTMLVideoElement) => Promise<{ rawValue: string }[]> }

type NativeDetector = {
  new (options: { formats: string[] }): CodeReader
  getSupportedFormats(): Promise<string[]>
}

/**
 * The browser's own BarcodeDetector where it reads every format we print; otherwise the
 * `barcode-detector` ponyfill (ZXing-C++ in WebAssembly), loaded only now.
 */
export async function createCodeReader(): Promise<CodeReader> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetector }).BarcodeDetector
  if (Native) {
    const supported = await Native.getSupportedFormats().catch(() => [] as string[])
    if (SCANNED_FORMATS.every((f) => supported.includes(f))) return new Native({ formats: [...SCANNED_FORMATS] })
  }
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill')
  // Loaded and compiled here, so a missing file is said when the camera opens, not on the first frame.
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingReaderWasm : prefix + path) },
    fireImmediately: true,
  })
  return new BarcodeDetector({ formats: [...SCANNED_FORMATS] })
}
