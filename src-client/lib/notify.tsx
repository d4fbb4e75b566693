import { Button, Group, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Trans } from '@lingui/react/macro'
import { toApiError } from './api-error'
import { errorMessage } from './error-messages'

/** SPEC 8: a red persistent top toast with the server's message and a CLOSE action. */
export function notifyError(error: unknown) {
  const message = errorMessage(toApiError(error))
  const id = notifications.show({
    color: 'red',
    autoClose: false,
    withCloseButton: false,
    // The text wraps in its own column and CLOSE keeps its width: never pushed out of the toast.
    message: (
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs" data-testid="error-toast">
        <Text size="sm" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {message}
        </Text>
        <Button size="compact-sm" variant="subtle" color="red" style={{ flexShrink: 0 }} onClick={() => notifications.hide(id)} data-testid="error-toast-close">
          <Trans>CHIUDI</Trans>
        </Button>
      </Group>
    ),
  })
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message, autoClose: 3000 })
}

/** Short alerts (login first, not authorised ...). */
export function notifyAlert(message: string) {
  notifications.show({ color: 'orange', message, autoClose: 4000 })
}
