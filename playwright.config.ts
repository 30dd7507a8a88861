import { defineConfig, devices } from '@playwright/test'

// Debian's Chromium: the registry cannot download Playwright's own browsers.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const port = Number(process.env.E2E_PORT ?? 4310)
const baseURL = `http://127.0.0.1:${port}`
export const widgetsURL = `http://127.0.0.1:${port + 2}`

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/playwright.json` }]]
    : [['list']],
  timeout: 30_000,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath, args: chromiumArgs },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath, args: chromiumArgs } },
    },
  ],
  webServer: [
    {
      // The production build on its own embedded database, as `npm start` runs it. A fresh
      // database each run: rate-limit counters and messages from earlier runs stay out.
      command: 'rm -rf data/e2e && node server/main.ts',
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: './data/e2e',
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        APP_URL: baseURL,
      },
    },
    {
      // The same site with third-party widgets configured, for the consent tests. Their script
      // address is not reachable from here; tests intercept it.
      command: 'rm -rf data/e2e-widgets && node server/main.ts',
      url: `${widgetsURL}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'production',
        PORT: String(port + 2),
        DATA_DIR: './data/e2e-widgets',
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        APP_URL: widgetsURL,
        REVIEWS_WIDGET_ID: 'test-reviews',
        INSTAGRAM_WIDGET_ID: 'test-instagram',
        WIDGET_SCRIPT_URL: 'https://widgets.example/platform.js',
      },
    },
  ],
})
