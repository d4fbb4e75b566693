import { useLingui } from '@lingui/react/macro'
import { Loader, TextInput, type TextInputProps } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { CameraScanButton } from '../scan/CameraScanButton'
import { queryClient, trpc } from '../../lib/trpc'
import type { Picked, ScanGroup, ScanResult } from './scan-group'

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  value: Picked | null
  onChange: (value: Picked | null) => void
  error?: string | null
  /** The form this field belongs to: its submit settles the field (see scan-group.ts) under `name`. */
  group?: ScanGroup
  /** Told the typed code that matches nothing (null once the field is empty or matches), so a filter can show nothing and say why. */
  onUnresolved?: (code: string | null) => void
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * A code field made for scanners: the code is typed (or sent by a scanner, which types it and
 * presses Enter) and read on Enter, when leaving the field and when its form is submitted; the
 * match is exact in any case. What it found shows under the field; an unknown code says so,
 * leaves the value empty and keeps the text, so the submit is refused instead of losing it.
 * The camera button beside it reads a label on a tablet without a scanner and types it the same way.
 */
function ScanInput({
  value,
  onChange,
  error,
  lookup,
  notFound,
  group,
  onUnresolved,
  ...rest
}: Props & { lookup: (code: string) => Promise<Picked | null>; notFound: string }) {
  const [text, setText] = useState(value?.code ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  /** The lookup of the text as it is now (one per text, so blur and submit share it). */
  const reading = useRef<{ code: string; result: Promise<ScanResult> } | null>(null)
  useEffect(() => {
    if (value && !same(value.code, text)) setText(value.code)
    if (!value && text && !busy && !problem) setText('')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value])

  function read(): Promise<ScanResult> {
    const code = text.trim()
    if (!code) {
      setProblem(null)
      onUnresolved?.(null)
      if (value) onChange(null)
      return Promise.resolve({ ok: true, value: null })
    }
    if (value && same(value.code, code)) return Promise.resolve({ ok: true, value })
    if (reading.current && same(reading.current.code, code)) return reading.current.result
    const result = (async (): Promise<ScanResult> => {
      setBusy(true)
      try {
        const found = await lookup(code).catch(() => null)
        setProblem(found ? null : notFound)
        onUnresolved?.(found ? null : code)
        onChange(found)
        if (found) setText(found.code)
        return found ? { ok: true, value: found } : { ok: false }
      } finally {
        setBusy(false)
      }
    })()
    reading.current = { code, result }
    return result
  }
  const readLatest = useRef(read)
  readLatest.current = read
  const name = rest.name
  useEffect(() => (group && name ? group.add(name, () => readLatest.current()) : undefined), [group, name])

  return (
    <TextInput
      {...rest}
      ref={input}
      value={text}
      autoComplete="off"
      onChange={(e) => {
        setText(e.currentTarget.value)
        setProblem(null)
        reading.current = null
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault()
          void read()
        }
      }}
      onBlur={() => void read()}
      description={value && !problem ? value.description || value.code : rest.description}
      error={problem ?? error}
      rightSection={busy ? <Loader size="xs" /> : <CameraScanButton target={() => input.current} size="md" disabled={rest.disabled} testId={rest.name ? `camera-scan-${rest.name}` : undefined} />}
      rightSectionPointerEvents="all"
    />
  )
}

/** A warehouse position by its code (scanned or typed). */
export function PositionScanInput(props: Props) {
  const { t } = useLingui()
  return (
    <ScanInput
      {...props}
      notFound={t`Posizione non trovata`}
      lookup={async (code) => {
        const res = await queryClient.fetchQuery({ ...trpc.positions.list.queryOptions({ code }), staleTime: 0 })
        const p = res.rows[0]
        return p ? { _key: p._key, code: p.code, description: p.path_codes.join(' / ') + (p.active ? '' : ` (${t`disattivata`})`) } : null
      }}
    />
  )
}

/** A product by its code (scanned or typed). */
export function ProductScanInput(props: Props) {
  const { t } = useLingui()
  return (
    <ScanInput
      {...props}
      notFound={t`Prodotto non trovato`}
      lookup={async (code) => {
        const res = await queryClient.fetchQuery({ ...trpc.products.list.queryOptions({ search: code, page_size: 100 }), staleTime: 0 })
        const p = res.rows.find((r) => r.code.toLowerCase() === code.toLowerCase())
        return p ? { _key: p._key, code: p.code, description: p.description } : null
      }}
    />
  )
}
