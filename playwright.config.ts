import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 8123)

/** Tests tagged ISOLATED (e2e/helpers.ts) change what every other test sees: they run alone, before the rest. */
const isolated = /@isolated/

/**
 * Browser tests in Debian's Chromium against the built app on its own port and a fresh data
 * directory (PGlite), or PostgreSQL when TEST_DATABASE_URL is set (see scripts/e2e-server.ts).
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: './test-results',
  // Two workers on the 2-core CI machine; the isolated project limits itself to one.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'en-US',
    screenshot: 'only-on-failure',
    // The app honours reduced motion (theme.ts): no waiting on transitions between actions.
    reducedMotion: 'reduce',
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
  projects: [
    { name: 'isolated', grep: isolated, workers: 1 },
    // Files side by side, the tests of one file one after another. No project dependency on
    // "isolated": Playwright would run that whole project before any one spec asked for by name.
    // A whole run takes the projects one after the other (`bun run test:e2e`, `bun run test`), so
    // that no test here sees a setting or the clock change under it.
    { name: 'parallel', grepInvert: isolated },
  ],
  webServer: {
    command: `bun scripts/e2e-server.ts`,
    url: `http://localhost:${PORT}/api/health`,
    env: { E2E_PORT: String(PORT), ...(process.env.MES_CLIENT_DIST ? { MES_CLIENT_DIST: process.env.MES_CLIENT_DIST } : {}) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
})
