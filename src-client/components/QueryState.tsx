import { Alert, Center, Loader } from '@mantine/core'
import { toApiError } from '../lib/api-error'
import { errorMessage } from '../lib/error-messages'

/** A page or tab whose data is still on its way. */
export function Loading() {
  return (
    <Center p="xl">
      <Loader />
    </Center>
  )
}

/** A page or tab whose data could not be loaded: the refusal, translated by its code. */
export function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" role="alert" maw={560}>
      {errorMessage(toApiError(error))}
    </Alert>
  )
}
