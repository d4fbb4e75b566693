import { useLingui } from '@lingui/react/macro'
import { Text, TextInput } from '@mantine/core'
import { useRouter } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import type { CodeKind } from '../../../src/domains/codes/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { trpcClient } from '../../lib/trpc'
import { FloatingAnchor, Hint } from '../floating/lazy'
import { CameraScanButton } from './CameraScanButton'

/** Typing in another field, or in an editor: "/" is a character there, not the shortcut. */
const isEditable = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))

/**
 * Scan to open, in the top bar: a traveller's QR, a label, or a code typed by hand (work order,
 * job WO000123/1, serial, position, product) opens what it names, on the screen this user has for
 * it (the server decides: codes.resolve). "/" (outside a field) or Ctrl+K puts the cursor here, so
 * a keyboard-wedge scanner can be pointed at it from any screen.
 */
export function ScanToOpen() {
  const { t } = useLingui()
  const router = useRouter()
  const input = useRef<HTMLInputElement>(null)
  const [text, setTextState] = useState('')
  // The field is never read-only: a scanner types the next code while the previous one resolves or
  // its page loads, and a key typed into a read-only field is lost. The latest text, for open():
  const latest = useRef('')
  const setText = (v: string) => {
    latest.current = v
    setTextState(v)
  }
  const [message, setMessage] = useState<string | null>(null)
  // Codes sent with Enter, looked up one at a time in the order they came.
  const sent = useRef<string[]>([])
  const busy = useRef(false)
  // The message's popover loads when the field is first used (it opens after a failed lookup).
  const [used, setUsed] = useState(false)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k'
      if (!ctrlK && !(e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isEditable(e.target))) return
      e.preventDefault()
      input.current?.focus()
      input.current?.select()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const notAllowed: Record<CodeKind, (code: string) => string> = {
    job: (code) => t`Non hai i permessi per aprire il job ${code}`,
    work_order: (code) => t`Non hai i permessi per aprire l'ordine di lavoro ${code}`,
    serial: (code) => t`Non hai i permessi per aprire il seriale ${code}`,
    position: (code) => t`Non hai i permessi per aprire la posizione ${code}`,
    product: (code) => t`Non hai i permessi per aprire il prodotto ${code}`,
  }

  /** Enter: the code leaves the field at once (a scanner types the next one right after), and is looked up. */
  async function open() {
    const code = latest.current.trim()
    if (!code) return
    setText('')
    sent.current.push(code)
    if (busy.current) return
    busy.current = true
    try {
      while (sent.current.length) await lookUp(sent.current.shift()!)
    } finally {
      busy.current = false
    }
  }

  async function lookUp(code: string) {
    try {
      const found = await trpcClient.codes.resolve.query({ code })
      setMessage(null)
      // The keyboard stays in the field while another code is arriving.
      if (latest.current === '' && sent.current.length === 0) input.current?.blur()
      void router.navigate({ href: found.route })
    } catch (e) {
      const err = toApiError(e)
      const kind = err.extra.kind as CodeKind | undefined
      if (err.code === 'CODE_NOT_FOUND') setMessage(t`Codice non trovato: ${code}`)
      else if (err.code === 'CODE_NOT_ALLOWED' && kind && notAllowed[kind]) setMessage(notAllowed[kind](String(err.extra.code ?? code)))
      else setMessage(errorMessage(err))
      // The refused code comes back into the empty field, selected: the next scan replaces it.
      if (latest.current === '' && sent.current.length === 0) {
        setText(code)
        requestAnimationFrame(() => input.current?.select())
      }
    }
  }

  const hint = t`Scansiona o scrivi un codice (ordine di lavoro, job, seriale, posizione, prodotto) e premi Invio per aprirlo. Scorciatoia: / oppure Ctrl+K`
  return (
    // Phones have no room for it in the top bar; the floor's tablets and desktops do.
    <Hint
      label={hint}
      multiline
      w={320}
      openDelay={400}
      disabled={message !== null}
      wrapper={{ visibleFrom: 'xs' }}
      want={used || message !== null}
      extra={({ Popover }) => (
        <Popover opened={message !== null} onChange={(o) => !o && setMessage(null)} position="bottom-start" withArrow>
          <Popover.Target>
            <FloatingAnchor />
          </Popover.Target>
          <Popover.Dropdown>
            <Text size="sm" c="red" data-testid="scan-to-open-message">
              {message}
            </Text>
          </Popover.Dropdown>
        </Popover>
      )}
    >
      <TextInput
        ref={input}
        aria-label={t`Scansiona per aprire`}
        placeholder={t`Apri codice  ( / )`}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value)
          setMessage(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            void open()
          }
          if (e.key === 'Escape') {
            setMessage(null)
            input.current?.blur()
          }
        }}
        onFocus={() => setUsed(true)}
        onBlur={() => setMessage(null)}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="go"
        w={{ base: 170, sm: 220 }}
        rightSection={<CameraScanButton target={() => input.current} size="md" testId="scan-to-open-camera" />}
        rightSectionPointerEvents="all"
        data-testid="scan-to-open"
      />
    </Hint>
  )
}
