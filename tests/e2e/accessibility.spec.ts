import { expectNoAxeViolations, test, waitForHydration } from './fixtures.ts'

const PAGES = [
  '/',
  '/services',
  '/calculator',
  '/store-guide',
  '/contact',
  '/not-a-page',
  '/auth',
  '/auth?mode=signup',
  '/auth?error=access_denied',
  '/forgot-password',
  '/email-verification',
  '/user-dashboard',
]

for (const language of ['es', 'en'] as const) {
  for (const path of PAGES) {
    test(`axe finds no violation on ${path} (${language}, desktop and mobile with the menu open)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${language}`)
      await waitForHydration(page)
      await expectNoAxeViolations(page)

      await page.setViewportSize({ width: 375, height: 740 })
      await page.getByRole('banner').locator('summary').click()
      await expectNoAxeViolations(page)
    })
  }
}
