import { expect, test, waitForHydration } from './fixtures.ts'

// The strict CSP refuses eval; a library that merely probes for it (zod did, on every page with
// a client-validated form) makes the browser report a violation each time. None may be reported.
for (const path of ['/auth', '/auth?mode=signup', '/contact', '/calculator', '/user-dashboard']) {
  test(`no CSP violation is reported on ${path}`, async ({ page, signInAs }) => {
    if (path.startsWith('/user-dashboard')) await signInAs()
    await page.addInitScript(() => {
      const seen: string[] = []
      Object.assign(window, { cspViolations: seen })
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
      )
    })
    await page.goto(path)
    await waitForHydration(page)
    // Validation runs on the client once a form is submitted empty: the first parse is where a
    // schema library would probe.
    const submit = page.locator('main form button[type="submit"]').first()
    if (await submit.isVisible()) {
      await submit.click()
      // The parse has run once its errors are on the fields.
      await expect(page.locator('main form [aria-invalid="true"]').first()).toBeVisible()
    }
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([])
  })
}
