import '@mantine/core/styles.css'
import { Button, MantineProvider } from '@mantine/core'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

// The yardstick of `bun run bench client`: a blank Vite React page with the app's UI kit
// (Mantine's provider, its stylesheet and one button). Not translated: never shipped.
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider>
      <Button data-testid="baseline-button">OK</Button>
    </MantineProvider>
  </StrictMode>,
)
