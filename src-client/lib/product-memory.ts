/**
 * SPEC 3 client-only product fields: the last tab (`last_page`), phase (`last_phase`) and steps
 * (`last_steps`) viewed, remembered per product in this browser.
 */
export type ProductPage = 'home' | 'process' | 'bom' | 'revisions'
type Memory = { last_page?: ProductPage; last_phase?: string; last_steps?: string }

const KEY = 'mes.product-memory'
const MAX_PRODUCTS = 200

function readAll(): Record<string, Memory> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, Memory>
  } catch {
    return {}
  }
}

export function productMemory(productKey: string): Memory {
  return readAll()[productKey] ?? {}
}

export function rememberProduct(productKey: string, patch: Memory) {
  const all = readAll()
  const { [productKey]: current, ...others } = all
  // Newest last; the oldest products are forgotten beyond MAX_PRODUCTS.
  const kept = Object.entries(others).slice(-(MAX_PRODUCTS - 1))
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries([...kept, [productKey, { ...current, ...patch }]])))
}

export const lastProductPage = (productKey: string): ProductPage => productMemory(productKey).last_page ?? 'home'
