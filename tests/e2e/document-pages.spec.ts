import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * The public pages are documents (app/lib/page-kind.ts, ADR 044): no framework script, the
 * stylesheet inlined, speculation rules for the next page; the calculator's form alone hydrates.
 */
for (const path of ['/', '/services', '/store-guide', '/contact', '/prohibited-items']) {
  test(`${path} loads no framework JavaScript and inlines its stylesheet`, async ({ page }) => {
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    await page.goto(path)
    await expect(page.locator('html')).toHaveAttribute('data-page', 'document')
    // The stylesheet, and the view-transition opt-in every page carries.
    await expect(page.locator('head style')).toHaveCount(2)
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0)
    await expect(page.locator('script[type="speculationrules"]')).toHaveCount(1)
    expect(scripts).toEqual([])
  })
}

test('the calculator hydrates only its form, which computes as the visitor types', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.goto('/calculator?lang=en')
  await waitForHydration(page)
  expect(scripts.length).toBeGreaterThan(0)
  for (const script of scripts) expect(script).toMatch(/^\/assets\/island-/)
  // React Router never ran: the document itself is not hydrated.
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true')
  await expect(page.getByRole('button', { name: 'Calculate' })).toHaveCount(0)
  const price = page.locator('#price')
  await price.fill('10000')
  await expect(page.getByRole('main')).toContainText('TotalJPY 11,550')
})

test('on a document page the menu closes on Escape and says so, and the currency applies on change', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto('/services?lang=en')
  const summary = page.getByRole('banner').locator('summary')
  await expect(summary).toHaveAttribute('aria-label', 'Open menu')
  await summary.click()
  await expect(summary).toHaveAttribute('aria-label', 'Close menu')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('banner').locator('details')).not.toHaveAttribute('open')
  await expect(summary).toBeFocused()
  await summary.click()
  const menu = page.getByRole('banner').locator('details')
  await expect(menu.getByRole('button', { name: 'Apply' })).toBeHidden()
  await menu.getByLabel('Currency').selectOption('USD')
  await expect(page).toHaveURL(/currency=USD/)
  await expect(page.locator('#mobile-currency')).toHaveValue('USD')
})

// Chromium rejects the promise of a cross-document view transition it skipped (a navigation cut
// it short, the page already revealed) where no page code can catch it; the page script keeps it
// from being reported as an unhandled error. Any other rejection is still reported (the fixture
// fails the test on it).
for (const path of ['/', '/auth']) {
  test(`a skipped view transition is not an error on ${path}`, async ({ page }) => {
    await page.goto(path)
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          void Promise.reject(
            new DOMException(
              'Transition was aborted because of invalid state. Page already revealed',
              'AbortError',
            ),
          )
          setTimeout(resolve, 100)
        }),
    )
  })
}
