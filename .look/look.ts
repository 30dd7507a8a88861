import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Page } from '@playwright/test'

const base = 'http://localhost:4720'
const look = JSON.parse(fs.readFileSync('/tmp/d/look.json', 'utf8'))
const out = '/work/wt/shots/d'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
const violations: string[] = []

async function context(who: 'customer' | 'admin', currency = 'USD') {
  const ctx = await browser.newContext()
  await ctx.addCookies([
    { name: 'better-auth.session_token', value: look.cookies[who], url: base, httpOnly: true, sameSite: 'Lax' },
    { name: 'currency', value: currency, url: base },
  ])
  return ctx
}
async function shot(page: Page, name: string, { axe = true } = {}) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 900 })
    await page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage: true })
  }
  if (axe) {
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze()
    for (const v of result.violations) violations.push(`${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }
}
const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

for (const lang of ['es', 'en'] as const) {
  const customer = await (await context('customer')).newPage()
  await customer.goto(`${base}/user-dashboard/shipping?lang=${lang}`)
  await hydrated(customer)
  await shot(customer, `shipping-tab-${lang}`)
  // Estimate of the two items past their free days.
  const boxes = customer.locator('input[name="items"]')
  const n = await boxes.count()
  for (let i = 0; i < n; i++) await boxes.nth(i).check()
  await customer.locator('button[value="estimate"]').click()
  await customer.getByTestId('shipment-estimate').waitFor()
  await shot(customer, `shipping-estimate-${lang}`)
  await customer.goto(`${base}/user-dashboard/shipments/${look.s1}?lang=${lang}`)
  await hydrated(customer)
  await shot(customer, `shipment-requested-${lang}`)
  await customer.locator('button', { hasText: lang === 'es' ? 'Cancelar este envío' : 'Cancel this shipment' }).last().click()
  await customer.locator('dialog[open]').waitFor()
  await customer.setViewportSize({ width: 1280, height: 900 })
  await customer.screenshot({ path: `${out}/shipment-cancel-dialog-${lang}-1280.png` })
  await customer.setViewportSize({ width: 375, height: 740 })
  await customer.screenshot({ path: `${out}/shipment-cancel-dialog-${lang}-375.png` })
  await customer.keyboard.press('Escape')
  await customer.goto(`${base}/user-dashboard/shipments/${look.s2}?lang=${lang}`)
  await hydrated(customer)
  await shot(customer, `shipment-reissued-${lang}`)
  const creditLink = customer.locator('a[href*="/credit-notes/"]').first()
  await creditLink.click()
  await customer.waitForURL(/credit-notes/)
  await hydrated(customer)
  await shot(customer, `credit-note-${lang}`)
  await customer.goto(`${base}/user-dashboard/shipments/${look.s2}?lang=${lang}`)
  const receipts = customer.locator('a[href*="/invoices/"]')
  const hrefs = await receipts.evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
  const unique = [...new Set(hrefs)]
  for (const [i, href] of unique.entries()) {
    await customer.goto(`${href}?lang=${lang}`)
    await hydrated(customer)
    await shot(customer, `receipt-${i}-${lang}`)
  }
  await customer.goto(`${base}/user-dashboard/notifications?lang=${lang}`)
  await hydrated(customer)
  await shot(customer, `notifications-${lang}`)
  await customer.goto(`${base}/calculator?lang=${lang}&sitems=2&sdays=12&weight=1500`)
  await hydrated(customer)
  await shot(customer, `calculator-${lang}`)

  const staff = await (await context('admin', 'JPY')).newPage()
  await staff.goto(`${base}/admin-dashboard/shipments/${look.s2}?lang=${lang}`)
  await hydrated(staff)
  await shot(staff, `staff-shipment-reissued-${lang}`)
  await staff.getByLabel(lang === 'es' ? 'Precio de envío correcto (yenes)' : 'Correct shipping price (yen)').fill('8000')
  await staff.getByLabel(lang === 'es' ? 'Motivo (el cliente lo lee en la nota de crédito y en el correo)' : 'Why (the customer reads it on the credit note and in the e-mail)').fill(lang === 'es' ? 'Prueba' : 'Test')
  await staff.locator('button', { hasText: lang === 'es' ? 'Ver qué cambia' : 'See what changes' }).click()
  await staff.locator('#reissue-heading').waitFor()
  await staff.waitForTimeout(1500)
  await shot(staff, `staff-reissue-confirm-${lang}`)
  await staff.goto(`${base}/admin-dashboard/shipments/${look.s1}?lang=${lang}`)
  await hydrated(staff)
  await shot(staff, `staff-shipment-requested-${lang}`)
  await staff.locator('input[name="weight"]').fill('1100')
  await staff.locator('input[name="price"]').fill('4000')
  await staff.locator('textarea[name="reason"]').first().fill(lang === 'es' ? 'Acordado con la clienta' : 'Agreed with the customer')
  await staff.locator('button', { hasText: lang === 'es' ? 'Empacar y enviar el recibo de envío' : 'Pack and send the shipping receipt' }).click()
  await staff.waitForTimeout(2500)
  await shot(staff, `staff-pack-confirm-${lang}`)
}
fs.writeFileSync('/tmp/d/axe.txt', violations.join('\n'))
console.log('violations', violations.length)
await browser.close()
