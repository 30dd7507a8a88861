import { expectNoAxeViolations, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertContactMessage } from './outbox.ts'

const PAGES = [
  '/',
  '/services',
  '/calculator',
  '/store-guide',
  '/contact',
  // The pages staff write (ADR 038).
  '/prohibited-items',
  '/seller-disclosure',
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

// The admin area's pages, signed in as an admin: the work for today, the staff's notifications,
// the payments to confirm, the contact inbox and one message.
for (const language of ['es', 'en'] as const) {
  test(`axe finds no violation on the contact inbox and a message (${language}, desktop and mobile)`, async ({
    page,
    signInAs,
  }) => {
    // Ten axe runs over the admin area's pages.
    test.setTimeout(180_000)
    const id = await insertContactMessage({
      name: 'Lucía Axe',
      email: uniqueEmail('axe'),
      message: 'Una línea\nY otra, bastante más larga para que se parta en pantallas pequeñas.',
      language,
    })
    await signInAs({ role: 'admin', language })
    for (const path of [
      '/admin-dashboard',
      '/admin-dashboard/notifications',
      '/admin-dashboard/payments',
      '/admin-dashboard/messages',
      `/admin-dashboard/messages/${id}`,
    ]) {
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.goto(`${path}?lang=${language}`)
      await waitForHydration(page)
      await expectNoAxeViolations(page)

      await page.setViewportSize({ width: 375, height: 740 })
      await page.getByRole('banner').locator('summary').click()
      await expectNoAxeViolations(page)
    }
  })
}
