import type { Page } from '@playwright/test'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// Every tab of the customer area and of the admin area, opened by clicking it (client-side
// navigation, as a person moves around), for each role and in both languages: no console error,
// no page error, no reload. A tab whose browser chunk carries server code ("Buffer is not
// defined", the Storage tab once) fails here; the build's own check
// (scripts/check-browser-chunks.ts) names the chunk.

const LOCALES = { es: esLocale, en: enLocale }
type Language = keyof typeof LOCALES

const CUSTOMER_TABS = ['submit', 'history', 'profile', 'notifications', 'shipping', 'payments'] as const
const STAFF_TABS = ['home', 'requests', 'shipments', 'storage', 'users'] as const
const ADMIN_TABS = [
  'home',
  'requests',
  'payments',
  'shipments',
  'storage',
  'users',
  'messages',
  'analytics',
  'settings',
  'rates',
  'importRules',
  'stores',
  'pages',
  'audit',
  'outbox',
] as const

/**
 * Clicks each named tab of the navigation `navName`, in order: the page must change by
 * client-side navigation (a flag set on `window` survives), mark the tab current, show a heading,
 * and log nothing.
 */
async function clickEveryTab(page: Page, consoleErrors: string[], navName: string, tabs: readonly string[]) {
  await waitForHydration(page)
  await page.evaluate(() => {
    ;(window as unknown as { clientSideOnly: boolean }).clientSideOnly = true
  })
  const nav = page.getByRole('navigation', { name: navName, exact: true })
  await expect(nav.getByRole('link')).toHaveCount(tabs.length)
  for (const [index, text] of tabs.entries()) {
    const link = nav.getByRole('link').nth(index)
    await expect(link).toContainText(text)
    await link.click()
    await expect(link, `${text}: the tab is current`).toHaveAttribute('aria-current', 'page')
    await expect(page.locator('main h1').first(), `${text}: a heading`).toBeVisible()
    expect(
      await page.evaluate(() => (window as unknown as { clientSideOnly?: boolean }).clientSideOnly),
      `${text}: no reload (client-side navigation)`,
    ).toBe(true)
    expect(consoleErrors, `${text}: no console or page error`).toEqual([])
  }
}

for (const language of ['es', 'en'] as const satisfies readonly Language[]) {
  const t = LOCALES[language]
  const customerTabs = CUSTOMER_TABS.map((key) => t.customerArea[key])

  test(`a customer clicks every tab of the customer area (${language})`, async ({
    page,
    signInAs,
    consoleErrors,
  }) => {
    await signInAs({ email: uniqueEmail(`nav-customer-${language}`), language })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard/shipping?lang=${language}`)
    await clickEveryTab(page, consoleErrors, t.customerArea.nav, customerTabs)
  })

  for (const role of ['moderator', 'admin'] as const) {
    const adminTabs = (role === 'admin' ? ADMIN_TABS : STAFF_TABS).map((key) => t.adminArea[key])

    test(`${role === 'admin' ? 'an' : 'a'} ${role} clicks every tab of the admin area and of the customer area (${language})`, async ({
      page,
      signInAs,
      consoleErrors,
    }) => {
      test.setTimeout(120_000)
      await signInAs({ email: uniqueEmail(`nav-${role}-${language}`), language, role })
      await page.setViewportSize({ width: 1280, height: 900 })
      // Started from the last tab, so the first click already changes the page.
      await page.goto(`/admin-dashboard/${role === 'admin' ? 'outbox' : 'users'}?lang=${language}`)
      await clickEveryTab(page, consoleErrors, t.adminArea.nav, adminTabs)

      await page.goto(`/user-dashboard/shipping?lang=${language}`)
      await clickEveryTab(page, consoleErrors, t.customerArea.nav, customerTabs)
    })
  }
}
