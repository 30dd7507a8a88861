import { expect, test, waitForHydration } from './fixtures.ts'

test('the home page renders in Spanish by default, with lang="es"', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Compra lo que quieras en Japón, nosotros te lo enviamos',
  )
  await expect(page).toHaveTitle('Compras en Japón y envíos a todo el mundo | Demo Proxy Shopping Japan')
})

test('switching to English persists across a reload and other pages', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/')
  await waitForHydration(page)
  await page
    .getByRole('navigation', { name: 'Idioma' })
    .getByRole('link', { name: /English/ })
    .click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Buy anything from Japan, we ship it to you',
  )

  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click()
  await expect(page).toHaveURL(/\/services$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our services')

  await page
    .getByRole('navigation', { name: 'Language' })
    .getByRole('link', { name: /Español/ })
    .click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nuestros servicios')
})

test('?lang=en is honoured on any URL, so links can be shared', async ({ page }) => {
  await page.goto('/contact?lang=en')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact us')
  await page.goto('/store-guide')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})

for (const [language, heading] of [
  ['es', '¡Ups! Página no encontrada'],
  ['en', 'Oops! Page not found'],
] as const) {
  test(`an unknown path shows the 404 page with status 404 (${language})`, async ({ page }) => {
    const response = await page.goto(`/this/does/not/exist?lang=${language}`)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await waitForHydration(page)
    await page.getByRole('main').getByRole('link').click()
    await expect(page).toHaveURL(/\/$/)
  })
}

test('the currency selector changes every figure and is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/?lang=en')
  await waitForHydration(page)
  const pricing = page.getByRole('region', { name: 'Transparent pricing' })
  await expect(pricing).toContainText('JPY\u00a0500')
  await expect(pricing).not.toContainText('approx.')

  await page.getByRole('banner').getByRole('combobox', { name: 'Currency' }).selectOption('USD')
  await expect(pricing).toContainText('approx. USD\u00a03.40')
  await page.reload()
  await expect(pricing).toContainText('approx. USD\u00a03.40')
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Currency' })).toHaveValue('USD')

  await page.getByRole('banner').getByRole('combobox', { name: 'Currency' }).selectOption('CLP')
  await expect(pricing).toContainText('approx. CLP\u00a03.270,00')
})

test('the footer links, company details and tax registration id come from settings', async ({ page }) => {
  await page.goto('/?lang=en')
  const footer = page.getByRole('contentinfo')
  await expect(footer).toContainText('Tax registration number: T0000000000000')
  await expect(footer).toContainText('Demo data')
  await expect(footer.getByRole('link', { name: 'Terms of use' })).toHaveAttribute('href', '/contact')
  await expect(footer.getByRole('link', { name: 'Privacy and cookies' })).toHaveAttribute('href', '/contact')
  await expect(footer.getByRole('link', { name: 'Calculators (beta)' })).toHaveAttribute(
    'href',
    '/calculator',
  )
  await expect(footer.getByRole('link', { name: 'Where to shop' })).toHaveAttribute('href', '/store-guide')
})

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('the mobile menu opens and closes by keyboard, and closes on navigation', async ({ page }) => {
    await page.goto('/?lang=en')
    await waitForHydration(page)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
    const button = page.getByRole('banner').locator('summary')
    await expect(button).toHaveAccessibleName('Open menu')

    // Keyboard only: Tab from the top reaches the skip link, the brand, then the menu button.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await expect(button).toBeFocused()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('navigation', { name: 'Menu' })
    await expect(menu).toBeVisible()
    await expect(button).toHaveAccessibleName('Close menu')

    await page.keyboard.press('Tab')
    await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(button).toBeFocused()

    await page.keyboard.press('Enter')
    await expect(menu).toBeVisible()
    await menu.getByRole('link', { name: 'Contact' }).click()
    await expect(page).toHaveURL(/\/contact$/)
    await expect(menu).toBeHidden()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the currency form still works through its Apply button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/?lang=en')
    const header = page.getByRole('banner')
    await header.getByRole('combobox', { name: 'Currency' }).selectOption('MXN')
    await header.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByRole('region', { name: 'Transparent pricing' })).toContainText(
      'approx. MXN\u00a065.00',
    )
  })

  test('the mobile menu opens as a disclosure', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await page.goto('/?lang=en')
    await page.getByRole('banner').locator('summary').click()
    await expect(page.getByRole('navigation', { name: 'Menu' })).toBeVisible()
  })
})
