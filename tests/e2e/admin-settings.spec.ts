import type { BrowserContext, Page } from '@playwright/test'
import { e2eDataDir, widgetsURL } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertAccount, insertSignedInAccount, latestEmail } from './outbox.ts'

// The admin's settings, rate tables and audit log, end to end. These tests change the prices
// every page shows, so they run one after the other on the second e2e server (its own database),
// never beside the calculator's tests on the first.

test.use({ baseURL: widgetsURL })
// Axe on the rate editor (two grids, over 200 fields) takes half a minute per width on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 })

// The second server's data directory (playwright.config.ts names it after the first one's port).
const widgetsDataDir = e2eDataDir.replace('e2e-', 'e2e-widgets-')
const SHOTS = process.env.SCREENSHOT_DIR

/** An account of `role` signed in in this browser context, on the second server's database. */
async function signInHere(
  context: BrowserContext,
  role: 'admin' | 'moderator' | 'user',
  language: 'es' | 'en',
) {
  const email = uniqueEmail(role)
  const account = await insertSignedInAccount(
    { email, name: `Staff ${role}`, language, role },
    widgetsDataDir,
  )
  await context.addCookies([
    {
      name: 'better-auth.session_token',
      value: account.cookie,
      url: widgetsURL,
      httpOnly: true,
      sameSite: 'Lax',
    },
  ])
  return email
}

async function open(page: Page, path: string, language: 'es' | 'en') {
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${language}`)
  await waitForHydration(page)
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

const TEXT = {
  es: {
    settings: 'Configuración',
    fee: 'Tarifa de servicio por artículo (yenes)',
    save: 'Guardar la configuración',
    saved: 'Configuración guardada',
    negative: 'No puede ser negativo.',
    summary: 'No se guardó nada: revisa los campos marcados.',
    price: 'Precio del artículo en yenes (por artículo)',
    yenPanel: 'Calculadora de precios en yenes',
    money: (amount: string) => `${amount.replace(',', '.')}\u00a0JPY`,
  },
  en: {
    settings: 'Settings',
    fee: 'Service fee per item (yen)',
    save: 'Save settings',
    saved: 'Settings saved',
    negative: 'It cannot be negative.',
    summary: 'Nothing was saved: check the highlighted fields.',
    price: 'Item price in yen (per item)',
    yenPanel: 'Yen price calculator',
    money: (amount: string) => `JPY\u00a0${amount}`,
  },
} as const

for (const [language, fee, total] of [
  ['es', '800', '3,630'],
  ['en', '650', '3,465'],
] as const) {
  const text = TEXT[language]
  test(`an admin changes the service fee and /calculator uses it at once; a negative fee is refused (${language})`, async ({
    page,
    context,
  }) => {
    await signInHere(context, 'admin', language)
    await open(page, '/admin-dashboard', language)
    await page.getByRole('navigation').getByRole('link', { name: text.settings, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.settings)
    await axeAtBothWidths(page, `settings-${language}`)

    const feeField = page.getByLabel(text.fee)
    await feeField.fill('-5')
    await page.getByRole('button', { name: text.save }).click()
    await expect(page.getByText(text.negative)).toBeVisible()
    await expect(feeField).toHaveAttribute('aria-invalid', 'true')
    await shot(page, `settings-error-${language}`)

    await feeField.fill(fee)
    await page.getByRole('button', { name: text.save }).click()
    await expect(page.getByRole('status')).toContainText(text.saved)
    await expect(page.getByLabel(text.fee)).toHaveValue(fee)

    // 2500 + fee, plus 10 % tax.
    await open(page, '/calculator', language)
    const panel = page.getByRole('region', { name: text.yenPanel })
    await panel.getByLabel(text.price).fill('2500')
    await expect(panel.locator('dl').first()).toContainText(text.money(total))
  })
}

test('two admins: the later save is told what the other saved, and nothing of it is written until saved again', async ({
  page,
  context,
  browser,
}) => {
  await signInHere(context, 'admin', 'en')
  await open(page, '/admin-dashboard/settings', 'en')
  const other = await browser.newContext({ baseURL: widgetsURL })
  const otherPage = await other.newPage()
  await signInHere(other, 'admin', 'en')
  await open(otherPage, '/admin-dashboard/settings', 'en')
  await otherPage.getByLabel('Free storage (days)').fill('45')
  await otherPage.getByRole('button', { name: 'Save settings' }).click()
  await expect(otherPage.getByRole('status')).toContainText('Settings saved')
  await other.close()

  await page.getByLabel('Days to pay a quote').fill('9')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByRole('alert')).toContainText(
    'Another admin saved the settings while you were editing',
  )
  await expect(page.getByText('Saved now: 45')).toBeVisible()
  await expect(page.getByLabel('Days to pay a quote')).toHaveValue('9')
  await shot(page, 'settings-conflict-en')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByRole('status')).toContainText('Settings saved')
  await expect(page.getByLabel('Days to pay a quote')).toHaveValue('9')
})

test('an admin edits an express rate, previews it against today’s price, confirms, and the calculator uses it', async ({
  page,
  context,
}) => {
  await signInHere(context, 'admin', 'en')
  await open(page, '/admin-dashboard/rates', 'en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipping rates')
  await axeAtBothWidths(page, 'rates-en')
  const express = page.getByRole('region', { name: 'Express', exact: true })
  // Row 2 of the express table is 1,000 g; USA is 6,380 today.
  const usa = express.getByLabel('USA, row 2', { exact: true })
  await expect(usa).toHaveValue('6380')
  await usa.fill('7,000')
  await express.getByRole('button', { name: 'Preview the change' }).click()
  await expect(express.getByRole('heading', { name: 'Preview: Express' })).toBeVisible()
  await expect(express.getByTestId('rates-changes-express')).toHaveText(
    'Rows added: none. Rows removed: none. Rows with new prices: 1,000 g.',
  )
  const row = express.getByRole('row', { name: /^1,000 g/ })
  await expect(row).toContainText('JPY\u00a06,380 → JPY\u00a07,000')
  await axeAtBothWidths(page, 'rates-preview-en')
  await express.getByRole('button', { name: 'Confirm and save' }).click()
  await expect(page.getByRole('status')).toContainText('Rates saved')
  await expect(
    page.getByRole('region', { name: 'Express', exact: true }).getByLabel('USA, row 2', { exact: true }),
  ).toHaveValue('7000')

  await open(page, '/calculator', 'en')
  const panel = page.getByRole('region', { name: 'Shipping calculator' })
  await panel.getByLabel('Express (EMS)').check()
  await panel.getByLabel('Destination region').selectOption('usa')
  await expect(panel).toContainText('JPY\u00a07,000')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the rate editor works with forms alone: a bad cell is explained, a row is added and saved', async ({
    page,
    context,
  }) => {
    await signInHere(context, 'admin', 'es')
    await page.goto('/admin-dashboard/rates?lang=es')
    const economic = page.getByRole('region', { name: 'Económico', exact: true })
    // The first spare row under the 18 economic rows becomes a 2,050 g row: first with zero prices.
    await economic.getByLabel('Hasta (g), fila 19', { exact: true }).fill('2050')
    for (const region of ['Asia', 'Europa, Canadá y México', 'EE. UU.', 'Centro y Sudamérica'])
      await economic.getByLabel(`${region}, fila 19`, { exact: true }).fill('0')
    await economic.getByRole('button', { name: 'Ver la vista previa del cambio' }).click()
    await expect(page.getByText('Un precio debe ser de al menos ¥1.').first()).toBeVisible()
    await shot(page, 'rates-error-es')
    const again = page.getByRole('region', { name: 'Económico', exact: true })
    for (const region of ['Asia', 'Europa, Canadá y México', 'EE. UU.', 'Centro y Sudamérica'])
      await again.getByLabel(`${region}, fila 19`, { exact: true }).fill('4000')
    await again.getByRole('button', { name: 'Ver la vista previa del cambio' }).click()
    await expect(page.getByTestId('rates-changes-economic')).toContainText('Filas agregadas: 2.050 g.')
    await page.getByRole('button', { name: 'Confirmar y guardar' }).click()
    await expect(page.getByRole('status')).toContainText('Tarifas guardadas')
    await expect(
      page
        .getByRole('region', { name: 'Económico', exact: true })
        .getByLabel('Hasta (g), fila 19', { exact: true }),
    ).toHaveValue('2050')
  })
})

test('the audit log lists the settings and rate changes with who made them, filtered by kind', async ({
  page,
  context,
}) => {
  await signInHere(context, 'admin', 'en')
  await open(page, '/admin-dashboard/audit', 'en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log')
  const records = page.getByTestId('audit-record')
  await expect(
    records.filter({ hasText: /Service fee per item \(yen\): JPY\s500 → JPY\s800/ }),
  ).toContainText('Settings changed')
  await expect(records.filter({ hasText: 'Express rate table' })).toContainText(
    /Rate table changed.*1,000 g: USA JPY\s6,380 → JPY\s7,000/,
  )
  await expect(records.filter({ hasText: 'Economic rate table' })).toContainText('2,050 g added')
  await axeAtBothWidths(page, 'audit-en')
  await page.getByLabel('Kind of change').selectOption('rates.update')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page).toHaveURL(/kind=rates.update/)
  await expect(records).not.toHaveCount(0)
  for (const record of await records.all()) await expect(record).toContainText('Rate table changed')
  await open(page, '/admin-dashboard/audit?kind=rates.update', 'es')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Registro de auditoría')
  await axeAtBothWidths(page, 'audit-es')
})

test('the outbox tab shows an admin the e-mails the site would send, while no mail server is configured', async ({
  page,
  context,
}) => {
  // A customer asks for a password reset (a real e-mail, written by the job worker to the outbox).
  const customer = uniqueEmail('outbox')
  await insertAccount({ email: customer, name: 'Outbox Customer', language: 'en' }, widgetsDataDir)
  await open(page, '/forgot-password', 'en')
  await page.getByLabel('E-mail', { exact: true }).fill(customer)
  await page.getByRole('button', { name: 'Send link' }).click()
  await expect(page.getByRole('status')).toContainText("We've sent you a password reset link.")
  const mail = await latestEmail(customer, { subject: 'Reset your password', dataDir: widgetsDataDir })

  await signInHere(context, 'admin', 'en')
  await open(page, '/admin-dashboard/outbox', 'en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outbox')
  const message = page.getByRole('listitem').filter({ hasText: `To: ${customer}` })
  await expect(message.getByRole('heading', { level: 2 })).toHaveText(mail.subject)
  await expect(message.getByRole('link', { name: mail.link })).toHaveAttribute('href', mail.link)
  await axeAtBothWidths(page, 'outbox-en')
  await open(page, '/admin-dashboard/outbox', 'es')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bandeja de salida')
  await expect(page.getByRole('navigation', { name: 'Área de administración' })).toContainText(
    'Bandeja de salida',
  )
  await axeAtBothWidths(page, 'outbox-es')
})

test('a moderator and a customer are refused each page, and see no tab for them', async ({
  page,
  context,
}) => {
  for (const role of ['moderator', 'user'] as const) {
    await context.clearCookies()
    await signInHere(context, role, 'en')
    for (const path of [
      '/admin-dashboard/settings',
      '/admin-dashboard/rates',
      '/admin-dashboard/audit',
      '/admin-dashboard/outbox',
    ]) {
      const answer = await page.goto(`${path}?lang=en`)
      expect(answer?.status()).toBe(403)
      await expect(page.getByRole('heading', { name: 'Admin Access Required' })).toBeVisible()
    }
  }
  // A moderator works the request queue, whose tabs leave these pages out.
  await context.clearCookies()
  await signInHere(context, 'moderator', 'en')
  await open(page, '/admin-dashboard/requests', 'en')
  const tabs = page.getByRole('navigation', { name: 'Admin area' })
  await expect(tabs.getByRole('link', { name: 'Purchase requests' })).toBeVisible()
  for (const name of ['Settings', 'Shipping rates', 'Audit log', 'Outbox'])
    await expect(tabs.getByRole('link', { name, exact: true })).toHaveCount(0)
})
