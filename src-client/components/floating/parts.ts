// Mantine's floating components and @floating-ui, in their own chunk (`floating`, scripts/vite-build-tuning.ts):
// imported only through ./lazy.tsx, on first use.
export { Menu, Popover, Tooltip } from '@mantine/core'
