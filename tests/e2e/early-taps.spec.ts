import { expect, test } from './fixtures.ts'

/**
 * A visitor on a slow phone taps before the page's JavaScript has finished: the tap must still
 * take them where the link or the form says (issue 29). Chromium's CPU slowed 6× (a mid-range
 * phone), the same tap at several moments of the load: as soon as the link exists, and later,
 * while the scripts load and hydrate. The content pages load no framework script; the pages that
 * hydrate (the calculator, the sign-in page) must not lose the tap either.
 */
const MOMENTS_MS = [0, 150, 400, 800]

for (const { from, link, to } of [
  { from: '/calculator', link: 'a[hreflang="en"]', to: /\/calculator\?lang=en$/ },
  { from: '/auth', link: 'a[href="/services"]', to: /\/services$/ },
  { from: '/contact', link: 'a[href="/store-guide"]', to: /\/store-guide$/ },
  { from: '/', link: 'a[href="/calculator"]', to: /\/calculator$/ },
] as const) {
  test(`a tap on the header's ${link} during the load of ${from} is followed, at every moment`, async ({
    page,
  }) => {
    // Four page loads on a CPU slowed 6×, on a CI machine shared by parallel workers: each tap
    // keeps its own 15 s limit below, the test as a whole gets room for the four loads.
    test.setTimeout(150_000)
    await page.setViewportSize({ width: 1280, height: 900 })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
    for (const delay of MOMENTS_MS) {
      await page.goto(`${from}?lang=es`, { waitUntil: 'commit' })
      const target = page.getByRole('banner').locator(`${link} >> visible=true`).first()
      await target.waitFor()
      if (delay > 0) await page.waitForTimeout(delay)
      await target.click({ noWaitAfter: true })
      await expect(page, `tap ${delay} ms after the link appeared`).toHaveURL(to, { timeout: 15_000 })
    }
  })
}
