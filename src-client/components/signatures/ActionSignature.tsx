import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { SignatureMeaning } from '../../../src/domains/process/steps'
import { type SignatureInput, type SignedAction, signatureSettingKey } from '../../../src/domains/signatures/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { SIGNATURE_MEANING_LABELS } from '../../lib/library-labels'
import { BACKGROUND, trpc } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'
import { ManifestRow, SignerFields, useSignerCredentials } from './SignerFields'

/**
 * A back-office action the plant's settings require to be signed (issue 22: releasing a revision,
 * closing a critical issue, correcting a serial or a job, reverting a movement). The action's own
 * dialog holds this state, shows `ActionSignatureFields` when `meaning` is set, sends `input()`
 * with its call and hands a refusal to `refused`: a signature refusal shows in the dialog,
 * anything else is the caller's to show. The signer types the password, or the personal PIN where
 * the plant allows it and they have set one, as in the step dialog (./SignerFields.tsx); the
 * settings name no second signer for actions, so none is asked.
 */
export function useActionSignature(action: SignedAction, applies = true) {
  const settings = useQuery(trpc.settings.get.queryOptions())
  const meaning: SignatureMeaning | null = applies ? (settings.data?.[signatureSettingKey(action)] ?? null) : null
  const [error, setError] = useState<string | null>(null)
  const credentials = useSignerCredentials(null, () => setError(null))
  return {
    meaning,
    credentials,
    error,
    /** Ready to send: nothing to sign, or the password or PIN typed. */
    ready: !meaning || credentials.ready,
    input: (): SignatureInput | undefined => (meaning ? credentials.input() : undefined),
    /** True when the refusal was the signature's (shown here; what was typed is cleared). */
    refused: (err: unknown): boolean => {
      const e = toApiError(err)
      const own = e.code === 'SIGNATURE_INVALID' && e.extra.credential === 'pin' ? WRONG_PIN : SIGNATURE_ERRORS[e.code]
      if (!own && !SHOWN_HERE.has(e.code)) return false
      credentials.clearSecrets()
      setError(own ? i18n._(own) : errorMessage(e))
      return true
    },
  }
}
export type ActionSignatureState = ReturnType<typeof useActionSignature>

/** Said of any signed action (the step dialog's own messages speak of a step). */
const SIGNATURE_ERRORS: Record<string, MessageDescriptor> = {
  SIGNATURE_REQUIRED: msg`Questa operazione va firmata: inserisci la password`,
  SIGNATURE_INVALID: msg`Password errata: nulla è stato firmato né modificato`,
}
const WRONG_PIN = msg`PIN errato: nulla è stato firmato né modificato`
/** Other refusals of the signature, shown in the dialog in their usual words. */
const SHOWN_HERE = new Set(['LOGIN_THROTTLED', 'PIN_SIGNING_DISABLED'])

/**
 * The manifest (signer's full name, the server's date and time, the meaning, what is signed) and
 * the password or PIN, inside the action's dialog; nothing when the settings require no signature.
 */
export function ActionSignatureFields({ state, what }: { state: ActionSignatureState; what: string }) {
  const { t, i18n } = useLingui()
  const session = useSession()
  const serverNow = useServerClock(state.meaning !== null)
  if (!state.meaning) return null
  const fullName = session ? `${session.name} ${session.surname}`.trim() || session.username : ''
  return (
    <Stack gap="xs" data-testid="action-signature">
      <Text fw={700}>
        <Trans>Firma elettronica</Trans>
      </Text>
      <Table withRowBorders={false} verticalSpacing={2} data-testid="signature-manifest">
        <Table.Tbody>
          <ManifestRow label={t`Firmatario`} value={fullName} />
          <ManifestRow label={t`Data e ora del server`} value={serverNow ? formatDateTime(serverNow) : '…'} />
          <ManifestRow label={t`Significato`} value={i18n._(SIGNATURE_MEANING_LABELS[state.meaning])} />
          <ManifestRow label={t`Cosa firmi`} value={what} />
        </Table.Tbody>
      </Table>
      <SignerFields state={state.credentials} />
      {state.error && (
        <Alert color="red" variant="light" data-testid="signature-error">
          {state.error}
        </Alert>
      )}
    </Stack>
  )
}

/** The server's clock, ticking from its answer when the dialog opened (the server stamps the signature itself). */
function useServerClock(enabled: boolean): number | null {
  const clock = useQuery({ ...trpc.signatures.clock.queryOptions(undefined, { trpc: BACKGROUND }), enabled, refetchOnMount: 'always' })
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!enabled) return
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [enabled])
  if (!clock.data) return null
  return clock.data.server_time + Math.max(0, now - clock.dataUpdatedAt)
}
