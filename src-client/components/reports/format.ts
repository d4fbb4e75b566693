/** Report figures as people read them (the app's locale: decimal comma in Italian). */
export const hours = (ms: number, locale: string) => (ms / 3_600_000).toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
export const percent = (x: number | null, locale: string) =>
  x === null ? '—' : (x * 100).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + ' %'
/** The currency of costs: hourly costs are entered in euro (the settings and users carry no currency of their own). */
export const CURRENCY = 'EUR'
export const money = (x: number | null, locale: string) => (x === null ? '—' : x.toLocaleString(locale, { style: 'currency', currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 2 }))
export const count = (x: number, locale: string) => x.toLocaleString(locale)
/** 'YYYY/MM/DD' labels of periods: a month shows YYYY/MM, a year YYYY. */
export function bucketLabel(bucket: string, period: string) {
  if (period === 'year') return bucket.slice(0, 4)
  if (period === 'month') return bucket.slice(0, 7)
  return bucket
}
