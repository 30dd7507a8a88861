import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'

/**
 * Every test fails if its page logged a console error or threw: a broken hydration, a CSP
 * violation or a missing asset shows up here.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      // Chromium reports a document served with 404 (our not-found page) as a failed resource;
      // that one is intended. Any other failed resource still counts.
      const notFoundDocuments = new Set<string>()
      page.on('response', (response) => {
        if (response.status() === 404 && response.request().isNavigationRequest())
          notFoundDocuments.add(response.url())
      })
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        const isOwnNotFound =
          message.text().startsWith('Failed to load resource') &&
          notFoundDocuments.has(message.location().url)
        if (!isOwnNotFound) errors.push(`${message.text()} (${message.location().url})`)
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

/** Waits until React has hydrated the document, so clicks reach React handlers. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
}
