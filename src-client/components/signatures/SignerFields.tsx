import { Trans, useLingui } from '@lingui/react/macro'
import { Divider, Group, type MantineSize, PasswordInput, SegmentedControl, Table, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { type KeyboardEvent, useRef, useState } from 'react'
import type { Scope } from '../../../src/auth/scopes'
import { PIN_MAX_LENGTH, type SecondSignerInput, type SignatureInput } from '../../../src/domains/signatures/schemas'
import { SCOPE_LABELS } from '../../lib/scope-labels'
import { trpc } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'
import { CameraTextInput } from '../scan/CameraTextInput'

/**
 * The pieces every signature dialog shares (issue 22, docs/signatures.md): the operator's step
 * dialog (components/operator/SignatureDialog.tsx) and the back-office signed actions
 * (./ActionSignature.tsx). Who signs proves it with their password, or with their personal PIN
 * where the plant's settings allow it (`pin_signing`) and they have set one; a second signer,
 * where one is required, gives username and password, or scans their badge and types their PIN.
 */
type Way = 'pin' | 'password'

const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, PIN_MAX_LENGTH)

/**
 * What is typed in a signature: the signer's password or PIN and, when `secondScope` names a
 * permission word, the second signer's. `onEdit` runs on every change (a dialog clears its
 * refusal there).
 */
export function useSignerCredentials(secondScope: Scope | null, onEdit?: () => void) {
  const session = useSession()
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  const pinAllowed = settings.data?.pin_signing === true
  const [ownWay, setOwnWay] = useState<Way>('pin')
  const [secondWay, setSecondWay] = useState<Way>('pin')
  const [secret, setSecret] = useState('')
  const [secondUsername, setSecondUsername] = useState('')
  const [badge, setBadge] = useState('')
  const [secondSecret, setSecondSecret] = useState('')
  // The PIN is offered where the plant allows it, and for the signer only once they have set one.
  const canUsePin = pinAllowed && !!session?.has_pin
  const ownPin = canUsePin && ownWay === 'pin'
  const secondPin = pinAllowed && secondWay === 'pin'
  const secondName = secondPin ? badge.trim() : secondUsername.trim()
  const edited = (set: (text: string) => void) => (text: string) => {
    set(text)
    onEdit?.()
  }
  return {
    secondScope,
    pinAllowed,
    canUsePin,
    ownPin,
    secondPin,
    ownWay,
    secondWay,
    secret,
    secondUsername,
    badge,
    secondSecret,
    /** Switching between PIN and password empties what was typed: a password is never sent as a PIN nor the other way. */
    setOwnWay: (way: Way) => {
      setOwnWay(way)
      edited(setSecret)('')
    },
    setSecondWay: (way: Way) => {
      setSecondWay(way)
      edited(setSecondSecret)('')
    },
    setSecret: edited((text) => setSecret(ownPin ? digitsOnly(text) : text)),
    setSecondUsername: edited(setSecondUsername),
    setBadge: edited(setBadge),
    setSecondSecret: edited((text) => setSecondSecret(secondPin ? digitsOnly(text) : text)),
    /** Everything asked is typed. */
    ready: secret !== '' && (!secondScope || (secondName !== '' && secondSecret !== '')),
    input: (): SignatureInput => {
      const second: SecondSignerInput = secondPin ? { badge: badge.trim(), pin: secondSecret } : { username: secondUsername.trim(), password: secondSecret }
      const own = ownPin ? { pin: secret } : { password: secret }
      return { ...own, ...(secondScope ? { second_signer: second } : {}) }
    },
    /** After a refusal: the passwords and PINs typed are not kept longer than needed. */
    clearSecrets: () => {
      setSecret('')
      setSecondSecret('')
    },
  }
}
export type SignerCredentials = ReturnType<typeof useSignerCredentials>

/**
 * The signer's statement and credential (a switch between PIN and password where both are
 * possible) and, when required, the second signer's: username and password, or badge and PIN,
 * whose badge field takes the scanner's keys (its Enter moves on to the PIN instead of signing).
 */
export function SignerFields({ state, size = 'sm', autoFocus = false }: { state: SignerCredentials; size?: MantineSize; autoFocus?: boolean }) {
  const { t, i18n } = useLingui()
  const secondPinInput = useRef<HTMLInputElement>(null)
  const secondRole = state.secondScope ? i18n._(SCOPE_LABELS[state.secondScope]) : null
  const way = (value: string): Way => (value === 'password' ? 'password' : 'pin')
  function badgeKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter') return
    e.preventDefault()
    if (state.badge.trim()) secondPinInput.current?.focus()
  }
  return (
    <>
      <Text size="sm" c="dimmed">
        {state.ownPin ? (
          <Trans>Con il PIN confermi che la firma è tua e ha lo stesso valore di una firma autografa.</Trans>
        ) : (
          <Trans>Con la password confermi che la firma è tua e ha lo stesso valore di una firma autografa.</Trans>
        )}
      </Text>
      {state.canUsePin && (
        <SegmentedControl
          data={[
            { value: 'pin', label: t`PIN` },
            { value: 'password', label: t`Password` },
          ]}
          value={state.ownWay}
          onChange={(v) => state.setOwnWay(way(v))}
          aria-label={t`Come firmi`}
        />
      )}
      <PasswordInput
        key={state.ownPin ? 'pin' : 'password'}
        label={state.ownPin ? t`Il tuo PIN` : t`La tua password`}
        size={size}
        value={state.secret}
        onChange={(e) => state.setSecret(e.currentTarget.value)}
        autoComplete={state.ownPin ? 'off' : 'current-password'}
        inputMode={state.ownPin ? 'numeric' : undefined}
        data-autofocus={autoFocus || undefined}
        required
        data-testid={state.ownPin ? 'signature-pin' : 'signature-password'}
      />
      {state.secondScope && (
        <>
          <Divider label={t`Secondo firmatario (permesso ${secondRole})`} labelPosition="left" />
          {state.pinAllowed && (
            <SegmentedControl
              data={[
                { value: 'pin', label: t`Badge e PIN` },
                { value: 'password', label: t`Nome utente e password` },
              ]}
              value={state.secondWay}
              onChange={(v) => state.setSecondWay(way(v))}
              aria-label={t`Come si identifica il secondo firmatario`}
            />
          )}
          {state.secondPin ? (
            <Group grow align="flex-start">
              <CameraTextInput
                label={t`Badge del secondo firmatario`}
                description={t`Passa il badge sul lettore`}
                size={size}
                value={state.badge}
                onChange={(e) => state.setBadge(e.currentTarget.value)}
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
                size={size}
                value={state.secondSecret}
                onChange={(e) => state.setSecondSecret(e.currentTarget.value)}
                autoComplete="off"
                inputMode="numeric"
                required
              />
            </Group>
          ) : (
            <Group grow align="flex-start">
              <TextInput
                label={t`Nome utente del secondo firmatario`}
                size={size}
                value={state.secondUsername}
                onChange={(e) => state.setSecondUsername(e.currentTarget.value)}
                autoComplete="off"
                autoCapitalize="none"
                required
              />
              <PasswordInput
                label={t`Password del secondo firmatario`}
                size={size}
                value={state.secondSecret}
                onChange={(e) => state.setSecondSecret(e.currentTarget.value)}
                autoComplete="off"
                required
              />
            </Group>
          )}
        </>
      )}
    </>
  )
}

/** One line of a signature's manifest (the step dialog's and the back-office actions'). */
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
