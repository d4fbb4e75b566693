import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Divider, Group, Modal, PasswordInput, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { FieldDefinition, FormDataEntry, FormValue } from '../../../src/domains/execution/schemas'
import type { StepSignature } from '../../../src/domains/process/steps'
import { PIN_MAX_LENGTH, type SecondSignerInput, type SignatureInput } from '../../../src/domains/signatures/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { SIGNATURE_MEANING_LABELS } from '../../lib/library-labels'
import { SCOPE_LABELS } from '../../lib/scope-labels'
import { BACKGROUND, trpc } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'

/** What the operator signs, as the dialog shows it (21 CFR 11.50: name, date and time, meaning). */
export type SignatureManifest = {
  stepTitle: string
  stepPosition: number
  batchNumber: number
  workOrderCode: string
  phaseName: string
  values: { name: string; value: string }[]
}

/**
 * The signature dialog of a step that must be signed (issue 22): the manifest (full name, the
 * server's date and time, the meaning, what is signed) and the operator's password, or PIN
 * where the plant allows it and the operator has one; when the step asks for a second signer,
 * their username and password, or their badge scan and PIN, in the same dialog, so the operator
 * stays signed in. A refusal shows here, in the user's language, and the dialog stays.
 */
export function SignatureDialog(props: {
  jobKey: string
  requirement: StepSignature
  manifest: SignatureManifest
  busy: boolean
  error: string | null
  onCancel: () => void
  onSign: (signature: SignatureInput) => void
}) {
  const { t, i18n } = useLingui()
  const session = useSession()
  const { requirement, manifest } = props
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  const pinAllowed = settings.data?.pin_signing === true
  const [ownWay, setOwnWay] = useState<Way>('pin')
  const [secondWay, setSecondWay] = useState<Way>('pin')
  // The PIN is offered where the plant allows it, and for the operator only once they have set one.
  const ownPin = pinAllowed && !!session?.has_pin && ownWay === 'pin'
  const secondPin = pinAllowed && secondWay === 'pin'
  const [password, setPassword] = useState('')
  const [secondUsername, setSecondUsername] = useState('')
  const [secondPassword, setSecondPassword] = useState('')
  const [badge, setBadge] = useState('')
  const secondPinInput = useRef<HTMLInputElement>(null)
  const serverNow = useServerNow(props.jobKey)
  // A refused attempt clears the passwords and PINs typed (never kept longer than needed).
  useEffect(() => {
    if (props.error) {
      setPassword('')
      setSecondPassword('')
    }
  }, [props.error])

  const fullName = session ? `${session.name} ${session.surname}`.trim() || session.username : ''
  const meaning = i18n._(SIGNATURE_MEANING_LABELS[requirement.meaning])
  const secondRole = requirement.second_signer ? i18n._(SCOPE_LABELS[requirement.second_signer]) : null
  const secondName = secondPin ? badge.trim() : secondUsername.trim()
  const ready = password !== '' && (!requirement.second_signer || (secondName !== '' && secondPassword !== ''))
  const ways = [
    { value: 'pin', label: t`PIN` },
    { value: 'password', label: t`Password` },
  ]
  const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, PIN_MAX_LENGTH)

  // The badge scanner types the code and Enter: Enter moves on to the PIN instead of signing.
  function badgeKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter') return
    e.preventDefault()
    if (badge.trim()) secondPinInput.current?.focus()
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    if (!ready || props.busy) return
    const second: SecondSignerInput = secondPin ? { badge: badge.trim(), pin: secondPassword } : { username: secondUsername.trim(), password: secondPassword }
    const own = ownPin ? { pin: password } : { password }
    props.onSign({ ...own, ...(requirement.second_signer ? { second_signer: second } : {}) })
  }

  return (
    <Modal
      opened
      onClose={props.onCancel}
      closeOnClickOutside={false}
      centered
      size="lg"
      title={
        <Text fw={700} size="xl">
          <Trans>Firma elettronica</Trans>
        </Text>
      }
      data-testid="signature-dialog"
    >
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Table withRowBorders={false} verticalSpacing={4} data-testid="signature-manifest">
            <Table.Tbody>
              <ManifestRow label={t`Firmatario`} value={fullName} />
              <ManifestRow label={t`Data e ora del server`} value={serverNow ? formatDateTime(serverNow) : '…'} />
              <ManifestRow label={t`Significato`} value={meaning} />
              <ManifestRow
                label={t`Cosa firmi`}
                value={t`Passo ${manifest.stepPosition}: ${manifest.stepTitle} · lotto n. ${manifest.batchNumber} · ${manifest.phaseName} · ${manifest.workOrderCode}`}
              />
              {manifest.values.map((v) => (
                <ManifestRow key={v.name} label={v.name} value={v.value} />
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            {ownPin ? (
              <Trans>Con il PIN confermi che la firma è tua e ha lo stesso valore di una firma autografa.</Trans>
            ) : (
              <Trans>Con la password confermi che la firma è tua e ha lo stesso valore di una firma autografa.</Trans>
            )}
          </Text>
          {pinAllowed && session?.has_pin && (
            <SegmentedControl data={ways} value={ownWay} onChange={(v) => switchWay(setOwnWay, v, setPassword)} aria-label={t`Come firmi`} />
          )}
          <PasswordInput
            key={ownPin ? 'pin' : 'password'}
            label={ownPin ? t`Il tuo PIN` : t`La tua password`}
            size="lg"
            value={password}
            onChange={(e) => setPassword(ownPin ? digitsOnly(e.currentTarget.value) : e.currentTarget.value)}
            autoComplete={ownPin ? 'off' : 'current-password'}
            inputMode={ownPin ? 'numeric' : undefined}
            data-autofocus
            required
          />
          {requirement.second_signer && (
            <>
              <Divider label={t`Secondo firmatario (permesso ${secondRole})`} labelPosition="left" />
              {pinAllowed && (
                <SegmentedControl
                  data={[
                    { value: 'pin', label: t`Badge e PIN` },
                    { value: 'password', label: t`Nome utente e password` },
                  ]}
                  value={secondWay}
                  onChange={(v) => switchWay(setSecondWay, v, setSecondPassword)}
                  aria-label={t`Come si identifica il secondo firmatario`}
                />
              )}
              {secondPin ? (
                <Group grow align="flex-start">
                  <TextInput
                    label={t`Badge del secondo firmatario`}
                    description={t`Passa il badge sul lettore`}
                    size="lg"
                    value={badge}
                    onChange={(e) => setBadge(e.currentTarget.value)}
                    onKeyDown={badgeKey}
                    autoComplete="off"
                    autoCapitalize="none"
                    spellCheck={false}
                    required
                  />
                  <PasswordInput
                    ref={secondPinInput}
                    label={t`PIN del secondo firmatario`}
                    description={t`Lo digita il secondo firmatario`}
                    size="lg"
                    value={secondPassword}
                    onChange={(e) => setSecondPassword(digitsOnly(e.currentTarget.value))}
                    autoComplete="off"
                    inputMode="numeric"
                    required
                  />
                </Group>
              ) : (
                <Group grow align="flex-start">
                  <TextInput
                    label={t`Nome utente del secondo firmatario`}
                    size="lg"
                    value={secondUsername}
                    onChange={(e) => setSecondUsername(e.currentTarget.value)}
                    autoComplete="off"
                    autoCapitalize="none"
                    required
                  />
                  <PasswordInput
                    label={t`Password del secondo firmatario`}
                    size="lg"
                    value={secondPassword}
                    onChange={(e) => setSecondPassword(e.currentTarget.value)}
                    autoComplete="off"
                    required
                  />
                </Group>
              )}
            </>
          )}
          {props.error && (
            <Alert color="red" variant="light" data-testid="signature-error">
              {props.error}
            </Alert>
          )}
          <Group justify="flex-end" mt="sm">
            <Button size="lg" variant="default" onClick={props.onCancel} disabled={props.busy}>
              <Trans>Annulla</Trans>
            </Button>
            <Button size="lg" type="submit" color="green" loading={props.busy} disabled={!ready}>
              <Trans>Firma e completa</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

type Way = 'pin' | 'password'

/** Switching between PIN and password empties what was typed: a password is never sent as a PIN nor the other way. */
function switchWay(setWay: (way: Way) => void, value: string, clear: (text: string) => void) {
  setWay(value === 'password' ? 'password' : 'pin')
  clear('')
}

/** One line of a signature's manifest (also the back-office actions', components/signatures/ActionSignature.tsx). */
export function ManifestRow({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Td w="35%" style={{ verticalAlign: 'top' }}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="md" fw={500} style={{ whiteSpace: 'pre-wrap' }}>
          {value}
        </Text>
      </Table.Td>
    </Table.Tr>
  )
}

/**
 * The server's clock, ticking: the work session is read again when the dialog opens and its
 * server_time moves on by the time passed since. The signature itself is stamped by the server.
 */
function useServerNow(jobKey: string): number | null {
  const view = useQuery({ ...trpc.execution.workSession.queryOptions({ job_key: jobKey }, { trpc: BACKGROUND }), refetchOnMount: 'always' })
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [])
  if (!view.data) return null
  return view.data.timer.server_time + Math.max(0, now - view.dataUpdatedAt)
}

/** The answers of a form step as the manifest lists them: field name and value as text. */
export function manifestValues(fields: readonly FieldDefinition[], entries: readonly FormDataEntry[]): { name: string; value: string }[] {
  const byKey = new Map(entries.map((e) => [e.field_key, e.value]))
  const text = (value: FormValue | undefined): string => {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '—'
    if (value === true) return i18n._(msg`Sì`)
    if (value === false) return i18n._(msg`No`)
    if (Array.isArray(value)) return value.join(', ')
    // Decimal numbers read with the user's separator, as they were typed.
    if (typeof value === 'number') return i18n.locale === 'it' ? String(value).replace('.', ',') : String(value)
    return value
  }
  return fields.map((f) => ({ name: f.name, value: text(byKey.get(f._key)) }))
}
