import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { catalogParts } from './scripts/vite-catalog-parts.ts'
import { clientChunks, floatingFreeScrollArea, precompress } from './scripts/vite-build-tuning.ts'
import { pwaOptions } from './scripts/vite-pwa.ts'
import { pureSharedConstants } from './scripts/vite-pure-schemas.ts'

const API_PORT = Number(process.env.PORT ?? 8000)

// Order matters (TOOLCHAIN.md): router code splitting, React, Lingui macros through Babel, catalogs (then split in two).
export default defineConfig({
  root: 'src-client',
  publicDir: '../public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { output: { codeSplitting: clientChunks } },
  },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './routes',
      generatedRouteTree: './routeTree.gen.ts',
    }),
    floatingFreeScrollArea(),
    react(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    lingui(),
    pureSharedConstants(),
    catalogParts(),
    VitePWA(pwaOptions),
    precompress(),
  ],
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: `http://localhost:${API_PORT}`, changeOrigin: false },
      '/media': { target: `http://localhost:${API_PORT}`, changeOrigin: false },
    },
  },
})
