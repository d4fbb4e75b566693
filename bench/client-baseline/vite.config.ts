import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from '../../scripts/vite-build-tuning.ts'

// Built by `bun run bench client` into a temporary folder, compressed like the app's build.
export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  build: { emptyOutDir: true },
  plugins: [react(), precompress()],
})
