import { Trans } from '@lingui/react/macro'
import { Button, Group, Modal, Text } from '@mantine/core'
import { useBlocker } from '@tanstack/react-router'

/**
 * Unsaved changes must be saved or cancelled before leaving (SPEC 4): navigating away asks first
 * (routes below the current one, such as a delete dialog, stay reachable), and closing or
 * reloading the page shows the browser's own prompt.
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => dirty && !next.pathname.startsWith(`${current.pathname}/`),
    enableBeforeUnload: () => dirty,
    withResolver: true,
  })
  return (
    <Modal opened={blocker.status === 'blocked'} onClose={() => blocker.reset?.()} title={<Trans>Modifiche non salvate</Trans>} centered>
      <Text size="sm">
        <Trans>Ci sono modifiche non salvate. Uscire e perderle?</Trans>
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          <Trans>Resta qui</Trans>
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          <Trans>Esci senza salvare</Trans>
        </Button>
      </Group>
    </Modal>
  )
}
