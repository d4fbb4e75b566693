/**
 * How the printed record writes values: dates and times as the app does (YYYY/MM/DD HH:mm in the
 * plant's time zone), decimal commas in Italian, yes and no, statuses, and signatures as the
 * screens show them.
 */
import type { RecordLanguage, RecordValue } from '../../../src/domains/history-record/schemas'
import type { SignatureView } from '../../../src/domains/signatures/schemas'
import { plantTimeZone } from '../reports/service'
import type { Labels } from './labels'

/**
 * A signature as the screens show it: "Firmato da Mario Rossi · 2026/11/28 14:03 · Verificato"
 * (· secondo firmatario), and the mark when what it signed changed afterwards.
 */
export function signatureLine(sig: SignatureView, l: Labels, f: Formatters): string {
  const parts = [`${l.signedBy} ${sig.full_name}`, f.dateTime(sig.signed_at), l.meanings[sig.meaning] ?? sig.meaning]
  if (sig.role === 'second_signer') parts.push(l.secondSigner)
  if (!sig.valid) parts.push(l.signatureInvalid)
  return parts.join(' · ')
}

export type Formatters = ReturnType<typeof formatters>

export function formatters(lang: RecordLanguage, l: Labels) {
  const stamp = new Intl.DateTimeFormat('sv-SE', { timeZone: plantTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const number = (n: number) => (lang === 'it' ? String(n).replace('.', ',') : String(n))
  const any = (v: unknown): string => {
    if (v === null || v === undefined) return ''
    if (typeof v === 'boolean') return v ? l.yes : l.no
    if (typeof v === 'number') return number(v)
    if (Array.isArray(v)) return v.map(any).join(', ')
    if (typeof v === 'object') return JSON.stringify(v)
    return String(v)
  }
  return {
    number,
    any,
    dateTime: (ms: number | null | undefined) => (ms === null || ms === undefined ? '' : stamp.format(new Date(ms)).replaceAll('-', '/')),
    status: (s: string) => l.statuses[s] ?? s,
    value(v: RecordValue): string {
      if (v.type === 'ternary') return v.value === 'true' ? l.yes : v.value === 'false' ? l.no : v.value === 'na' ? l.na : any(v.value)
      if (v.type === 'date' && typeof v.value === 'string') return v.value.replaceAll('-', '/')
      return any(v.value)
    },
  }
}
