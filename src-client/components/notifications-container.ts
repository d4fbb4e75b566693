// Mantine's notifications container and its transitions, in their own chunk (`notifications`,
// scripts/vite-build-tuning.ts): imported only through ./LazyNotifications.tsx, at the first toast.
export { Notifications as default } from '@mantine/notifications'
