import { randomInt } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { insertSignedInAccount, PASSWORD } from './outbox.ts'

export { PASSWORD }

let counter = 0
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++counter}@example.com`

type AccountOptions = {
  email?: string
  name?: string
  language?: 'es' | 'en'
  role?: 'user' | 'admin' | 'moderator'
}

/** A visitor's own address, as the proxy in front of the e2e server reports it. */
const visitorAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

/**
 * Every test fails if its page logged a console error or threw: a broken hydration, a CSP
 * violation or a missing asset shows up here.
 */
export const test = base.extend<{
  consoleErrors: string[]
  signInAs: (options?: AccountOptions) => Promise<{ id: string; email: string; password: string }>
}>({
  // Each test is a visitor at its own address (the e2e server trusts one proxy), so the real
  // per-address rate limits apply to each test as to one customer, not to the whole run at once.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': visitorAddress() })
  },
  /**
   * A verified account with PASSWORD, signed in in this test's browser context without the
   * sign-in form: the user and session rows go straight into the e2e server's database and the
   * signed session cookie into the context. Tests about signing in use the form instead.
   */
  signInAs: async ({ context, baseURL }, use) => {
    await use(
      async ({
        email = uniqueEmail('customer'),
        name = 'Ana Pérez',
        language = 'en',
        role = 'user',
      } = {}) => {
        const account = await insertSignedInAccount({ email, name, language, role })
        await context.addCookies([
          {
            name: 'better-auth.session_token',
            value: account.cookie,
            url: baseURL ?? '',
            httpOnly: true,
            sameSite: 'Lax',
          },
        ])
        return { id: account.id, email, password: PASSWORD }
      },
    )
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      // Chromium reports a document or a React Router data request answered with a 4xx (our
      // not-found page, a form answered 400 with its errors) as a failed resource; those are
      // intended. Any other failure (a script, a stylesheet, an image) counts.
      const clientErrorDocuments = new Set<string>()
      page.on('response', (response) => {
        const status = response.status()
        const isData = new URL(response.url()).pathname.endsWith('.data')
        if (status >= 400 && status < 500 && (response.request().isNavigationRequest() || isData)) {
          clientErrorDocuments.add(response.url())
        }
      })
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        const isIntended =
          message.text().startsWith('Failed to load resource') &&
          clientErrorDocuments.has(message.location().url)
        if (!isIntended) errors.push(`${message.text()} (${message.location().url})`)
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await use(errors)
      expect(errors, 'console errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  const summary = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }))
  expect(summary).toEqual([])
}

/**
 * Axe at a phone's width (375 px) and a desktop's (1280 px), ending at the desktop's; with
 * SCREENSHOT_DIR set and a `name`, a full-page picture at each width (`<name>-375.png`…).
 */
export async function axeAtBothWidths(page: Page, name?: string) {
  // With SCREENSHOT_DIR set (a walk to look at), the tablet width too, each width photographed.
  const dir = process.env.SCREENSHOT_DIR
  const widths = [[375, 740], ...(dir && name ? ([[800, 900]] as const) : []), [1280, 900]] as const
  for (const [width, height] of widths) {
    await page.setViewportSize({ width, height })
    await expectNoAxeViolations(page)
    if (dir && name) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true })
  }
}

/**
 * Waits until the page's client-side behaviour is live: React has hydrated an app page, so clicks
 * reach React handlers; a document page (app/lib/page-kind.ts) never hydrates (its plain script is
 * live from the <head>), but its islands do (`data-island-ready`).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const root = document.documentElement
    if (root.dataset.hydrated === 'true') return true
    return (
      root.dataset.page === 'document' && !document.querySelector('[data-island]:not([data-island-ready])')
    )
  })
}
