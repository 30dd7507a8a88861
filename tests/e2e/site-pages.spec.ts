import { axeAtBothWidths, expect, test, waitForHydration } from './fixtures.ts'

// The pages staff write (ADR 038): what we cannot buy or ship, linked from the FAQ and the
// request form, and the seller disclosure, linked from the footer's company column; both
// server-rendered in each language and edited by admins, every save audited.

test('the footer leads to the seller disclosure; the FAQ and the request form to what we cannot buy or ship (es, 375 px)', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/?lang=es')
  await page.getByRole('contentinfo').getByRole('link', { name: 'Datos del vendedor (特定商取引法)' }).click()
  await expect(page).toHaveURL(/\/seller-disclosure$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Datos del vendedor (Ley de Transacciones Comerciales Específicas)',
  )
  const disclosure = page.getByRole('main').locator('dl')
  await expect(disclosure.getByRole('term').filter({ hasText: 'Vendedor (販売業者)' })).toBeVisible()
  // The company's address from the settings, in Spanish.
  await expect(disclosure).toContainText('Osaka, Japón')
  await expect(disclosure).toContainText('Transferencia bancaria')
  await axeAtBothWidths(page, 'seller-disclosure-es')

  await page.goto('/?lang=es')
  await page.getByRole('link', { name: 'Antes de pedir: lo que no compramos ni enviamos' }).click()
  await expect(page).toHaveURL(/\/prohibited-items$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lo que no compramos ni enviamos')
  await expect(page.getByRole('heading', { level: 2, name: 'No los compramos' })).toBeVisible()
  await expect(page.getByRole('main')).toContainText('Baterías de litio sueltas')
  await axeAtBothWidths(page, 'prohibited-items-es')

  await signInAs({ language: 'es' })
  await page.goto('/user-dashboard?lang=es')
  await expect(
    page.getByRole('link', { name: /Revisa antes lo que no compramos ni enviamos/ }),
  ).toHaveAttribute('href', '/prohibited-items')
  // Beside a link, the form says whether we know its shop (the store guide) or check it first.
  await waitForHydration(page)
  const url = page.getByLabel('Enlace al producto', { exact: true })
  await url.fill('https://www.ebay.com/itm/123')
  await expect(page.getByText('ebay.com no está en nuestra guía de tiendas')).toBeVisible()
  await url.fill('https://jp.mercari.com/item/m1')
  await expect(page.getByText('De Mercari, una tienda de nuestra guía.')).toBeVisible()
})

test('an admin edits a page in English: visitors see it at once and the audit log says so', async ({
  page,
  browser,
  signInAs,
}) => {
  // A visitor reads the page first (it is cached for visitors).
  const visitor = await browser.newPage()
  await visitor.goto('/prohibited-items?lang=en')
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('What we cannot buy or ship')
  const marker = `Drones ${Date.now()}`

  await signInAs({ role: 'admin', language: 'en' })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/admin-dashboard/pages?lang=en')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Public pages')
  await page.getByRole('link', { name: 'Edit: What we cannot buy or ship' }).click()
  await waitForHydration(page)
  const body = page.getByRole('group', { name: 'In English' }).getByLabel('Text', { exact: true })
  await body.fill(`${await body.inputValue()}\n\n## Also not\n- ${marker}`)
  // An empty Spanish title is refused on its field, in the browser.
  const spanishTitle = page.getByRole('group', { name: 'In Spanish' }).getByLabel('Title', { exact: true })
  const title = await spanishTitle.inputValue()
  await spanishTitle.fill('')
  await page.getByRole('button', { name: 'Save the page' }).click()
  await expect(page.getByText('Fill in this field.').first()).toBeVisible()
  await spanishTitle.fill(title)
  await page.getByRole('button', { name: 'Save the page' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Page saved' })).toBeVisible()
  await axeAtBothWidths(page, 'admin-page-editor-en')

  await expect(async () => {
    await visitor.reload()
    await expect(visitor.getByRole('listitem').filter({ hasText: marker })).toBeVisible({ timeout: 500 })
  }).toPass()
  await visitor.close()

  await page.goto('/admin-dashboard/audit?kind=page.update&lang=en')
  const record = page.getByTestId('audit-record').first()
  await expect(record).toContainText('Public page edited')
  await expect(record).toContainText('Page: /prohibited-items')
  await expect(record).toContainText('Text (English)')
})
