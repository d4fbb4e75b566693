import { useLingui } from '@lingui/react/macro'
import { Loader, TextInput, type TextInputProps } from '@mantine/core'
import { useEffect, useState } from 'react'
import { queryClient, trpc } from '../../lib/trpc'

export type Picked = { _key: string; code: string; description: string }

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  value: Picked | null
  onChange: (value: Picked | null) => void
  error?: string | null
}

/**
 * A code field made for scanners: the code is typed (or sent by a scanner, which types it and
 * presses Enter) and read on Enter or when leaving the field; the match is exact in any case.
 * What it found shows under the field; an unknown code says so and leaves the value empty.
 */
function ScanInput({ value, onChange, error, lookup, notFound, ...rest }: Props & { lookup: (code: string) => Promise<Picked | null>; notFound: string }) {
  const [text, setText] = useState(value?.code ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (value && value.code.toLowerCase() !== text.trim().toLowerCase()) setText(value.code)
    if (!value && text && !busy && !problem) setText('')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value])
  async function read() {
    const code = text.trim()
    if (!code) {
      setProblem(null)
      if (value) onChange(null)
      return
    }
    if (value && value.code.toLowerCase() === code.toLowerCase()) return
    setBusy(true)
    try {
      const found = await lookup(code)
      setProblem(found ? null : notFound)
      onChange(found)
      if (found) setText(found.code)
    } catch {
      setProblem(notFound)
      onChange(null)
    } finally {
      setBusy(false)
    }
  }
  return (
    <TextInput
      {...rest}
      value={text}
      autoComplete="off"
      onChange={(e) => {
        setText(e.currentTarget.value)
        setProblem(null)
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
      rightSection={busy ? <Loader size="xs" /> : undefined}
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
