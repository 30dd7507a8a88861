import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS } from './scripts/lib/production-server.ts'
import { DLOCAL_STAND_IN_CREDENTIALS } from './tests/support/dlocal-stand-in/server.ts'
import { STAND_IN_CREDENTIALS } from './tests/support/payment-stand-in/server.ts'
import { WHATSAPP_STAND_IN_CREDENTIALS } from './tests/support/whatsapp-stand-in/server.ts'

// Debian's Chromium: the registry cannot download Playwright's own browsers.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const port = Number(process.env.E2E_PORT ?? 4310)
const baseURL = `http://127.0.0.1:${port}`
export const widgetsURL = `http://127.0.0.1:${port + 2}`
// The local OpenID Connect provider that stands in for Google (tests/support/oidc-provider.ts).
export const googleIssuerURL = `http://127.0.0.1:${port + 4}`
// Per port, so two runs on one machine (E2E_PORT apart) never share a database.
export const e2eDataDir = `data/e2e-${port}`
// The site with PayPal and Stripe configured, both pointing at the local payment stand-in
// (tests/support/payment-stand-in/server.ts): tests/e2e/payments.spec.ts. The main server stays as a
// fresh `npm start` is: no provider, bank transfers only.
export const paymentsURL = `http://127.0.0.1:${port + 6}`
export const paymentsDataDir = `data/e2e-payments-${port}`
export const paymentStandInURL = `http://127.0.0.1:${port + 8}`
// Every site reads pasted shop links from the local shop stand-in (tests/support/shop-stand-in/),
// never from the shops: no test reaches the internet (issue 31).
const shopStandInPort = port + 10
// The payments site also has WhatsApp configured, pointing at the local Cloud API stand-in
// (tests/support/whatsapp-stand-in/server.ts): tests/e2e/whatsapp.spec.ts.
export const whatsappStandInURL = `http://127.0.0.1:${port + 12}`
// The payments site also has dLocal (Latin-American local methods), pointing at its own local
// stand-in (tests/support/dlocal-stand-in/server.ts): tests/e2e/local-payments.spec.ts.
export const dlocalStandInURL = `http://127.0.0.1:${port + 13}`

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/playwright.json` }]]
    : [['list']],
  // Generous: CI shares a two-core machine, and axe over a long page alone can take several seconds.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath, args: CHROMIUM_FLAGS },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath, args: CHROMIUM_FLAGS } },
    },
  ],
  webServer: [
    // The production build on its own embedded database, as `npm start` runs it behind one proxy:
    // each test sends its own X-Forwarded-For (tests/e2e/fixtures.ts), so the real per-address
    // rate limits hold for every test as for one visitor, and tests never share a counter.
    e2eServer({
      port,
      dataDir: e2eDataDir,
      appUrl: baseURL,
      extra: {
        ADMIN_EMAILS: 'admin@example.com',
        TRUST_PROXY: '1',
        GOOGLE_CLIENT_ID: 'storefront-e2e.apps.example',
        GOOGLE_CLIENT_SECRET: 'e2e-google-secret',
        GOOGLE_ISSUER: googleIssuerURL,
      },
    }),
    {
      command: `node tests/support/oidc-provider.ts ${port + 4}`,
      url: `${googleIssuerURL}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      command: `node tests/support/payment-stand-in/server.ts --port ${port + 8} --webhook-url ${paymentsURL}/api/payments/webhooks/`,
      port: port + 8,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      command: `node tests/support/whatsapp-stand-in/server.ts --port ${port + 12} --webhook-url ${paymentsURL}/api/whatsapp/webhook`,
      port: port + 12,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      command: `node tests/support/dlocal-stand-in/server.ts --port ${port + 13} --webhook-url ${paymentsURL}/api/payments/webhooks/dlocal`,
      port: port + 13,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      command: `node tests/support/shop-stand-in/server.ts ${shopStandInPort}`,
      port: shopStandInPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    e2eServer({
      port: port + 6,
      dataDir: paymentsDataDir,
      appUrl: paymentsURL,
      extra: {
        TRUST_PROXY: '1',
        PAYPAL_CLIENT_ID: STAND_IN_CREDENTIALS.paypal.clientId,
        PAYPAL_CLIENT_SECRET: STAND_IN_CREDENTIALS.paypal.clientSecret,
        PAYPAL_WEBHOOK_ID: STAND_IN_CREDENTIALS.paypal.webhookId,
        PAYPAL_API_URL: paymentStandInURL,
        STRIPE_SECRET_KEY: STAND_IN_CREDENTIALS.stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: STAND_IN_CREDENTIALS.stripe.webhookSecret,
        STRIPE_API_URL: paymentStandInURL,
        WHATSAPP_API_URL: `${whatsappStandInURL}/v23.0`,
        WHATSAPP_PHONE_NUMBER_ID: WHATSAPP_STAND_IN_CREDENTIALS.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: WHATSAPP_STAND_IN_CREDENTIALS.accessToken,
        WHATSAPP_APP_SECRET: WHATSAPP_STAND_IN_CREDENTIALS.appSecret,
        WHATSAPP_VERIFY_TOKEN: WHATSAPP_STAND_IN_CREDENTIALS.verifyToken,
        DLOCAL_LOGIN: DLOCAL_STAND_IN_CREDENTIALS.login,
        DLOCAL_TRANS_KEY: DLOCAL_STAND_IN_CREDENTIALS.transKey,
        DLOCAL_SECRET_KEY: DLOCAL_STAND_IN_CREDENTIALS.secretKey,
        DLOCAL_API_URL: dlocalStandInURL,
      },
    }),
    // The same site with third-party widgets configured, for the consent tests. Their script
    // address is not reachable from here; tests intercept it.
    e2eServer({
      port: port + 2,
      dataDir: `data/e2e-widgets-${port}`,
      appUrl: widgetsURL,
      extra: {
        REVIEWS_WIDGET_ID: 'test-reviews',
        INSTAGRAM_WIDGET_ID: 'test-instagram',
        WIDGET_SCRIPT_URL: 'https://widgets.example/platform.js',
      },
    }),
  ],
})

/** A fresh database each run: rate-limit counters and messages from earlier runs stay out. */
function e2eServer({
  port,
  dataDir,
  appUrl,
  extra = {},
}: {
  port: number
  dataDir: string
  appUrl: string
  extra?: Record<string, string>
}) {
  return {
    command: `rm -rf ${dataDir} && exec node server/main.ts`,
    // SIGTERM, as a process manager would: the app stops its embedded PostgreSQL before exiting
    // (Playwright's default, SIGKILL, left one running per server and run).
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    url: `${appUrl}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: `./${dataDir}`,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      APP_URL: appUrl,
      // E-mails are background jobs: idle workers look for them twice a second.
      JOBS_POLL_INTERVAL_SECONDS: '0.5',
      LINK_PREVIEW_STAND_IN: `127.0.0.1:${shopStandInPort}`,
      ...extra,
    },
  }
}
