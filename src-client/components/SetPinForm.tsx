import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { pinProblem } from '../../src/domains/signatures/pin'
import { PIN_MAX_LENGTH } from '../../src/domains/signatures/schemas'
import { ApiError, toApiError } from '../lib/api-error'
import { auth } from '../lib/auth-store'
import { errorMessage } from '../lib/error-messages'
import { rest } from '../lib/rest'

/**
 * Sets or replaces the own signing PIN (docs/signatures.md): the current password proves it is
 * the user, the PIN is typed twice. The server keeps only its hash.
 */
export function SetPinForm({ minLength, onDone }: { minLength: number; onDone: () => void }) {
  const { t } = useLingui()
  const [current, setCurrent] = useState('')
  const [pin, setPin] = useState('')
  const [repeat, setRepeat] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, PIN_MAX_LENGTH)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    const problem = pinProblem(pin, minLength)
    if (problem) return setError(errorMessage(new ApiError(400, problem, '', { min_length: minLength, max_length: PIN_MAX_LENGTH })))
    if (pin !== repeat) return setError(t`I due PIN non coincidono`)
    setBusy(true)
    try {
      await rest('POST', '/pin', { current_password: current, new_pin: pin })
      await auth.refreshSession()
      onDone()
    } catch (err) {
      setError(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  const pinProps = { inputMode: 'numeric' as const, autoComplete: 'off', maxLength: PIN_MAX_LENGTH, required: true }
  return (
    <form onSubmit={submit}>
      <Stack>
        <Text size="sm" c="dimmed">
          <Trans>
            Il PIN firma al posto della password dove lo stabilimento lo consente: da {minLength} a {PIN_MAX_LENGTH} cifre, non cifre tutte uguali né sequenze. Non
            comunicarlo a nessuno.
          </Trans>
        </Text>
        <PasswordInput label={t`Password attuale`} name="current-password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
        <PasswordInput label={t`Nuovo PIN`} name="new-pin" {...pinProps} value={pin} onChange={(e) => setPin(digitsOnly(e.currentTarget.value))} />
        <PasswordInput label={t`Ripeti il nuovo PIN`} name="repeat-pin" {...pinProps} value={repeat} onChange={(e) => setRepeat(digitsOnly(e.currentTarget.value))} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          <Trans>Salva il PIN</Trans>
        </Button>
      </Stack>
    </form>
  )
}
