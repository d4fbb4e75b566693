import { describe, expect, test } from 'bun:test'
import { ZXING_WASM_SHA256, ZXING_WASM_VERSION } from 'barcode-detector/ponyfill'

describe('the camera decoder served by the app', () => {
  test("the bundled zxing_reader.wasm is exactly the one barcode-detector's JavaScript expects", async () => {
    const zxingPackage = await Bun.file(Bun.resolveSync('zxing-wasm/package.json', import.meta.dir)).json()
    expect(zxingPackage.version).toBe(ZXING_WASM_VERSION)
    const wasm = await Bun.file(Bun.resolveSync('zxing-wasm/reader/zxing_reader.wasm', import.meta.dir)).arrayBuffer()
    expect(new Bun.CryptoHasher('sha256').update(wasm).digest('hex')).toBe(ZXING_WASM_SHA256)
  })
})
