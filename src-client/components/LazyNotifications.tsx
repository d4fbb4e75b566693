import { Notification, Portal, Stack } from '@mantine/core'
import { type NotificationData, notifications, notificationsStore, useNotifications } from '@mantine/notifications'
import { type ComponentProps, type ComponentType, useEffect, useState } from 'react'

type Container = typeof import('./notifications-container').default
type Props = ComponentProps<Container> & { position: 'top-center' }

/**
 * Mantine's `<Notifications>` (the toasts' container, with its transitions: about 5 KB on the
 * wire) mounted at the first toast, not with the first screen (issue 23): `notifications.show`
 * writes to Mantine's store, which is loaded at once; the container then loads and shows what
 * the store holds. Until it mounts, the store places toasts where the container will.
 *
 * A tablet can show its first toast with the Wi-Fi down ("kept on this device"), before the
 * service worker controls the page: then the chunk cannot load, and the toasts show in a plain
 * stack (no transitions) until the network is back and the container loads.
 */
export function LazyNotifications(props: Props) {
  const { notifications: shown, queue } = useNotifications()
  const [wanted, setWanted] = useState(false)
  const [loaded, setLoaded] = useState<{ Container: ComponentType<Props> } | null>(null)
  const [failed, setFailed] = useState(false)
  if (!wanted && shown.length + queue.length > 0) setWanted(true)
  useEffect(() => {
    if (!wanted || loaded || failed) return
    let live = true
    import('./notifications-container').then(
      (m) => live && setLoaded({ Container: m.default as ComponentType<Props> }),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [wanted, loaded, failed])
  useEffect(() => {
    if (!failed) return
    const retry = () => setFailed(false)
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [failed])
  if (loaded) return <loaded.Container {...props} />
  if (failed) return <PlainToasts toasts={shown} width={props.containerWidth} zIndex={props.zIndex} />
  return null
}

/** The toasts without the container: a fixed stack at the top, each closing itself as it asks. */
function PlainToasts({ toasts, width, zIndex }: { toasts: NotificationData[]; width?: number | string; zIndex?: number | string }) {
  if (toasts.length === 0) return null
  return (
    <Portal>
      <Stack gap="xs" style={{ position: 'fixed', top: 16, left: '50%', transform: 'translateX(-50%)', width, maxWidth: 'calc(100vw - 32px)', zIndex: Number(zIndex ?? 1000) }}>
        {toasts.map((n) => (
          <PlainToast key={n.id} toast={n} />
        ))}
      </Stack>
    </Portal>
  )
}

function PlainToast({ toast }: { toast: NotificationData }) {
  const { id, message, title, color, autoClose, withCloseButton } = toast
  useEffect(() => {
    if (autoClose === false || !id) return
    const timer = setTimeout(() => notifications.hide(id), typeof autoClose === 'number' ? autoClose : 4000)
    return () => clearTimeout(timer)
  }, [id, autoClose])
  return (
    <Notification color={color} title={title} withCloseButton={withCloseButton !== false} onClose={() => id && notifications.hide(id)} withBorder>
      {message}
    </Notification>
  )
}

/** The container's position for the toasts shown before it mounts (Mantine's default is bottom right). */
export function placeToasts(position: Props['position']) {
  notificationsStore.updateState((state) => ({ ...state, defaultPosition: position }))
}
