import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { paymentsDataDir, paymentsURL } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'

// The store guide editor in both languages: an admin adds a store, gives it an SVG logo, sees it
// in the public guide at once (its cached page dropped), hides it and sees it go; bad input is
// said field by field. Axe at 375 and 1280 px on the list and the store's page.
//
// On the second server (its own database): adding and hiding stores changes the guide's counts,
// which tests/e2e/store-guide.spec.ts checks on the main server at the same time.

const LOCALES = { es: esLocale, en: enLocale }

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32">
  <rect width="32" height="32" rx="6" fill="#0f766e"/><circle cx="16" cy="16" r="8" fill="#fff"/>
  <script>document.title = 'owned'</script>
</svg>`

test.use({ baseURL: paymentsURL })

for (const language of ['es', 'en'] as const) {
  test(`an admin adds a store with a logo; the guide shows it at once; hidden, it goes (${language})`, async ({
    page,
    context,
    browser,
  }) => {
    test.setTimeout(180_000)
    const t = LOCALES[language]
    const name = `Tienda Prueba ${uniqueEmail(language).split('.')[1]}`
    const category = t.storeCategories.household_and_misc
    const admin = await insertSignedInAccount(
      { email: uniqueEmail(`stores-${language}`), role: 'admin', language },
      paymentsDataDir,
    )
    await context.addCookies([
      {
        name: 'better-auth.session_token',
        value: admin.cookie,
        url: paymentsURL,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ])
    const guide = `/store-guide?lang=${language}&category=household_and_misc`
    // A visitor's view first, so the guide's page is in the page cache before the change.
    const visitorContext = await browser.newContext({ baseURL: paymentsURL })
    const visitor = await visitorContext.newPage()
    await visitor.goto(guide)
    await expect(visitor.getByRole('main')).not.toContainText(name)

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/admin-dashboard/stores?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.adminStores.title)
    await axeAtBothWidths(page, `stores-${language}`)

    await page.getByRole('link', { name: t.adminStores.add }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.adminStores.newTitle)
    await waitForHydration(page)
    // Nothing filled in: each field says what it needs.
    await page.getByRole('button', { name: t.adminStores.create }).click()
    await expect(page.getByText(t.adminForm.errors.categoriesRequired)).toBeVisible()
    await expect(page.getByText(t.adminForm.errors.required).first()).toBeVisible()
    await expect(page).toHaveURL(/\/admin-dashboard\/stores\/new/)

    await page.getByLabel(t.adminStores.fields.name).fill(name)
    await page.getByLabel(t.adminStores.fields.url).fill('https://tienda-prueba.example.jp')
    await page.getByLabel(t.adminStores.fields.descriptionEs).fill('Cosas para la casa, con envío rápido.')
    await page.getByLabel(t.adminStores.fields.descriptionEn).fill('Things for the home, shipped fast.')
    await page.getByLabel(category).check()
    await page.getByLabel(t.adminStores.fields.logoText).fill('TP')
    await page.getByRole('button', { name: t.adminStores.create }).click()
    await expect(page).toHaveURL(/\/admin-dashboard\/stores$/)
    await expect(page.getByRole('status').getByText(t.toasts.storeSaved.title)).toBeVisible()

    await page.getByRole('link', { name, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
    await page.getByLabel(t.adminStores.logo.file).setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(LOGO),
    })
    await page.getByRole('button', { name: t.adminStores.logo.upload }).click()
    await expect(page.getByText(t.adminStores.logo.current)).toBeVisible()
    await expect(page.getByRole('button', { name: t.adminStores.logo.remove })).toBeVisible()
    await axeAtBothWidths(page, `store-${language}`)

    // The visitor's guide, from the cache a moment ago, now shows the store and its logo.
    await visitor.goto(guide)
    const card = visitor.getByRole('listitem').filter({ hasText: name })
    await expect(card.getByRole('link', { name: new RegExp(name) })).toHaveAttribute(
      'href',
      'https://tienda-prueba.example.jp/',
    )
    await expect(card.locator('img')).toHaveAttribute('src', /^\/store-logos\/\d+-[0-9a-f]{16}\.png$/)
    const logo = await page.request.get((await card.locator('img').getAttribute('src')) ?? '')
    expect(logo.headers()['content-type']).toBe('image/png')
    expect((await logo.body()).includes('owned')).toBe(false)

    await page.goto(`/admin-dashboard/stores?lang=${language}`)
    await page.getByRole('button', { name: `${t.adminStores.hide} ${name}` }).click()
    await expect(page.getByRole('status').getByText(t.toasts.storeHidden.title)).toBeVisible()
    await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText(
      t.adminStores.hiddenBadge,
    )
    await visitor.goto(guide)
    await expect(visitor.getByRole('main')).not.toContainText(name)
    await visitorContext.close()
  })
}
