import pg from 'pg'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { e2eDataDir } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { insertQuotedRequest } from '../support/invoices.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// The customs declaration (issue 30) in the browser: the customer writes the descriptions and
// confirms them on their shipment's page; a moderator adds an HS code and opens the printable
// form. The shipment is written straight into the e2e server's database (paid, received, asked
// to ship), as the payment tests write their quotes: the lifecycle test walks the steps before.

/** A paid request of two items at the office (400 g, 700 g) and the customer's shipment of both to Lima. */
async function insertRequestedShipment(userId: string, language: 'es' | 'en') {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(e2eDataDir) })
  await client.connect()
  try {
    const quoted = await insertQuotedRequest(client, {
      userId,
      locale: language,
      items: [{ unitPriceJpy: 3000 }, { unitPriceJpy: 5000 }],
    })
    await client.query(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [
      quoted.invoiceId,
    ])
    await client.query(`UPDATE purchase_requests SET status = 'in_progress', paid_at = now() WHERE id = $1`, [
      quoted.requestId,
    ])
    for (const [index, itemId] of quoted.itemIds.entries()) {
      await client.query(
        `UPDATE request_items SET status = 'received', weight_grams = $2, received_at = now(), reserved_at = now() WHERE id = $1`,
        [itemId, index === 0 ? 400 : 700],
      )
    }
    const address = {
      fullName: 'Ana Pérez',
      street: 'Av. Larco 123',
      city: 'Lima',
      region: 'Lima',
      postalCode: '15074',
      country: 'PE',
      phone: '+5112345678',
    }
    const { rows } = await client.query(
      `INSERT INTO shipments (user_id, method, address, country, region, route, estimated_weight_g, estimated_price_jpy, locale)
       VALUES ($1, 'economic', $2, 'PE', 'central_south_america', 'direct', 1300, 5000, $3) RETURNING id`,
      [userId, JSON.stringify(address), language],
    )
    const shipmentId = String(rows[0].id)
    for (const itemId of quoted.itemIds) {
      await client.query('INSERT INTO shipment_items (shipment_id, item_id) VALUES ($1, $2)', [
        shipmentId,
        itemId,
      ])
    }
    return shipmentId
  } finally {
    await client.end()
  }
}

for (const language of ['es', 'en'] as const) {
  const t = { es: esLocale, en: enLocale }[language]
  const fill = (text: string, values: Record<string, string | number>) =>
    text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''))

  test(`the customer describes and confirms the declaration; staff add an HS code and print it (${language})`, async ({
    page,
    signInAs,
  }) => {
    // Two pages, each checked by axe at two widths.
    test.slow()
    const customer = await signInAs({ email: uniqueEmail('declaration'), language })
    const shipmentId = await insertRequestedShipment(customer.id, language)
    await page.goto(`/user-dashboard/shipments/${shipmentId}?lang=${language}`)
    await waitForHydration(page)
    const section = page.getByRole('region', { name: t.declaration.heading })
    await expect(section).toContainText(fill(t.declaration.lead, { form: 'CN22' }))
    await expect(section.getByTestId('declaration-total')).toContainText(/8[.,]000/)
    await expect(section.getByTestId('declaration-confirmation')).toHaveText(t.declaration.notConfirmed)

    // Too vague: refused on its field, in the page's language; nothing confirmed.
    const first = section.getByLabel(fill(t.declaration.descriptionLabel, { position: 1 }))
    const second = section.getByLabel(fill(t.declaration.descriptionLabel, { position: 2 }))
    await first.fill('Gift')
    await second.fill('Plush toy, polyester')
    await section.getByRole('button', { name: t.declaration.confirm }).click()
    await expect(section.getByText(t.declaration.errors.descriptionVague)).toBeVisible()
    await expect(second).toHaveValue('Plush toy, polyester')
    await first.fill('Anime figure, PVC')
    await section.getByRole('button', { name: t.declaration.confirm }).click()
    await expect(section.getByRole('status')).toHaveText(t.declaration.confirmed)
    await expect(section.getByTestId('declaration-confirmation')).toContainText(
      t.declaration.confirmedOn.split('{{date}}')[0] ?? '',
    )
    await axeAtBothWidths(page, `declaration-customer-${language}`)

    // A moderator adds an HS code (the customer's confirmation stays) and opens the printable form.
    await signInAs({ email: uniqueEmail('declaration-staff'), language, role: 'moderator' })
    await page.goto(`/admin-dashboard/shipments/${shipmentId}?lang=${language}`)
    await waitForHydration(page)
    const staff = page.getByRole('region', { name: new RegExp(t.staffDeclaration.heading) })
    await staff.getByLabel(fill(t.staffDeclaration.hsLabel, { position: 1 })).fill('9503.00')
    await staff.getByRole('button', { name: t.staffDeclaration.save }).click()
    await expect(staff.getByRole('status')).toHaveText(t.staffDeclaration.saved)
    await expect(staff).toContainText('9503.00')
    await expect(staff.getByTestId('declaration-confirmation')).toContainText(
      t.staffDeclaration.confirmedOn.split('{{date}}')[0] ?? '',
    )
    await staff.getByRole('link', { name: t.staffDeclaration.print }).click()
    await expect(page).toHaveURL(new RegExp(`/admin-dashboard/shipments/${shipmentId}/declaration`))
    await expect(page.getByRole('heading', { level: 1 })).toContainText('CN22')
    await expect(page.getByTestId('declaration-recipient')).toContainText('PERU')
    await expect(page.getByRole('main')).toContainText(t.staffDeclaration.printable.saleOfGoods)
    await expect(page.getByRole('main')).toContainText('Anime figure, PVC')
    await axeAtBothWidths(page, `declaration-print-${language}`)
  })
}
