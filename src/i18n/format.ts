const pad = (n: number) => String(n).padStart(2, '0')

/** SPEC date format YYYY/MM/DD, in the viewer's local calendar. */
export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return ''
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`
}

export function formatDateTime(value: Date | string | number | null | undefined): string {
  const date = formatDate(value)
  if (!date) return ''
  const d = value instanceof Date ? value : new Date(value as string | number)
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
