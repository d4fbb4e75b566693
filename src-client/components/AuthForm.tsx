import { Alert, Paper, Stack } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { toApiError } from '../lib/api-error'
import { errorMessage } from '../lib/error-messages'

/**
 * Sending a credentials form (sign-in, unlock): busy while `action` runs, its refusal translated
 * into `error`; `onError` runs after a refusal (e.g. to clear the password).
 */
export function useCredentialsSubmit(action: () => Promise<void>, onError?: () => void) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(errorMessage(toApiError(err)))
      onError?.()
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, submit }
}

/** The card of the sign-in and lock screens: the fields, the refusal if any, then the buttons. */
export function AuthForm(props: { onSubmit: (e: React.FormEvent) => void; error: string | null; children: ReactNode; actions: ReactNode }) {
  return (
    <Paper withBorder shadow="md" p="xl" w={420} maw="100%">
      <form onSubmit={props.onSubmit}>
        <Stack>
          {props.children}
          {props.error && (
            <Alert color="red" role="alert">
              {props.error}
            </Alert>
          )}
          {props.actions}
        </Stack>
      </form>
    </Paper>
  )
}
