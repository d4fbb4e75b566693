import { notificationsStore, useNotifications } from '@mantine/notifications'
import { type ComponentProps, lazy, Suspense, useState } from 'react'

const Notifications = lazy(() => import('./notifications-container'))

type Props = ComponentProps<typeof Notifications> & { position: 'top-center' }

/**
 * Mantine's `<Notifications>` (the toasts' container, with its transitions: about 5 KB on the
 * wire) mounted at the first toast, not with the first screen (issue 23): `notifications.show`
 * writes to Mantine's store, which is loaded at once; the container then loads and shows what
 * the store holds. Until it mounts, the store places toasts where the container will.
 */
export function LazyNotifications(props: Props) {
  const { notifications, queue } = useNotifications()
  const [wanted, setWanted] = useState(false)
  if (!wanted && notifications.length + queue.length > 0) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  )
}

/** The container's position for the toasts shown before it mounts (Mantine's default is bottom right). */
export function placeToasts(position: Props['position']) {
  notificationsStore.updateState((state) => ({ ...state, defaultPosition: position }))
}
