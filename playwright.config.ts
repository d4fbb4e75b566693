import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 8123)

/**
 * Browser tests in Debian's Chromium against the built app on its own port and a fresh data
 * directory (PGlite), or PostgreSQL when TEST_DATABASE_URL is set (see scripts/e2e-server.ts).
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'en-US',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    // The app's service worker (issue 24) registers a few seconds after load; requests it answers
    // bypass page.route. Specs that test the installed app allow it (operator-offline-queue).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `bun scripts/e2e-server.ts`,
    url: `http://localhost:${PORT}/api/health`,
    env: { E2E_PORT: String(PORT), ...(process.env.MES_CLIENT_DIST ? { MES_CLIENT_DIST: process.env.MES_CLIENT_DIST } : {}) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
})
