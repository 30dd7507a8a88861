import type { Page } from '@playwright/test'
import { widgetsURL } from '../../playwright.config.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// Against the server that has third-party widgets configured.
test.use({ baseURL: widgetsURL })

const WIDGET_SCRIPT = 'https://widgets.example/platform.js'

/** Records every request to a third party, and answers the widget script with a stub. */
async function watchThirdParty(page: Page) {
  const requests: string[] = []
  page.on('request', (request) => {
    if (!request.url().startsWith(widgetsURL) && !request.url().startsWith('data:'))
      requests.push(request.url())
  })
  await page.route(WIDGET_SCRIPT, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'window.__widgetLoaded = true' }),
  )
  return requests
}

test('before consent: a banner, our own reviews and gallery, and no third-party request', async ({
  page,
}) => {
  const requests = await watchThirdParty(page)
  await page.goto('/?lang=en')
  await waitForHydration(page)
  await expect(page.getByRole('region', { name: 'Cookies and third-party content' })).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'What our customers say' }).getByRole('listitem').first(),
  ).toBeVisible()
  await expect(page.getByRole('img', { name: 'Mount Fuji at sunrise' })).toBeVisible()
  await page.mouse.wheel(0, 5000)
  await page.waitForLoadState('networkidle')
  expect(requests).toEqual([])
  expect(await page.evaluate(() => 'widgetLoaded' in window || '__widgetLoaded' in window)).toBe(false)
})

test('accepting loads the widgets; the choice is remembered and can be changed from the footer', async ({
  page,
}) => {
  const requests = await watchThirdParty(page)
  await page.goto('/?lang=es')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Aceptar' }).click()
  await expect(page.getByRole('region', { name: 'Cookies y contenido de terceros' })).toBeHidden()
  await expect.poll(() => requests).toContain(WIDGET_SCRIPT)
  await expect.poll(() => page.evaluate(() => '__widgetLoaded' in window)).toBe(true)
  await expect(page.locator('.elfsight-app-test-reviews')).toHaveCount(1)
  await expect(page.locator('.elfsight-app-test-instagram')).toHaveCount(1)

  const response = await page.reload()
  expect(response?.headers()['content-security-policy']).toContain("img-src 'self' data: https:")
  await expect(page.getByRole('region', { name: 'Cookies y contenido de terceros' })).toBeHidden()

  await page.getByRole('button', { name: 'Preferencias de cookies' }).click()
  await expect(page.getByRole('region', { name: 'Cookies y contenido de terceros' })).toBeVisible()
})

test('rejecting keeps third parties out, and the strict policy stays', async ({ page }) => {
  const requests = await watchThirdParty(page)
  await page.goto('/?lang=en')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Reject' }).click()
  await expect(page.getByRole('region', { name: 'Cookies and third-party content' })).toBeHidden()
  const response = await page.reload()
  expect(response?.headers()['content-security-policy']).toContain("img-src 'self' data:;")
  await expect(page.getByRole('img', { name: 'Mount Fuji at sunrise' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(requests).toEqual([])
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the consent buttons work as a plain form', async ({ page }) => {
    await page.goto('/services?lang=en')
    await page.getByRole('button', { name: 'Reject' }).click()
    await expect(page).toHaveURL(/\/services\?lang=en$/)
    await expect(page.getByRole('region', { name: 'Cookies and third-party content' })).toBeHidden()
  })
})
