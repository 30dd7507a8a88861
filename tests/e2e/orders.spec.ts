import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// Orders, part 1, in both languages: a customer sends two links, finds the request pending in
// their history with its items, opens it and cancels it; an admin finds it in the queue. Axe
// checks each new page at 1280 and 375 pixels.

const WORDS = {
  en: {
    item: (n: number) => `Item ${n}`,
    url: 'Link to the item',
    quantity: 'Quantity',
    add: 'Add another link',
    send: 'Send request',
    sent: /Request PR-\d{6} sent/,
    history: 'My requests',
    pending: 'Waiting for a quote',
    cancel: 'Cancel this request',
    cancelled: 'Request cancelled.',
    cancelledStatus: 'Cancelled',
    queue: 'Purchase requests',
    search: 'Search',
    apply: 'Apply',
    urlError: 'Use a web address starting with http:// or https://.',
  },
  es: {
    item: (n: number) => `Producto ${n}`,
    url: 'Enlace al producto',
    quantity: 'Cantidad',
    add: 'Agregar otro enlace',
    send: 'Enviar solicitud',
    sent: /Solicitud PR-\d{6} enviada/,
    history: 'Mis solicitudes',
    pending: 'Esperando cotización',
    cancel: 'Cancelar esta solicitud',
    cancelled: 'Solicitud cancelada.',
    cancelledStatus: 'Cancelada',
    queue: 'Solicitudes de compra',
    search: 'Buscar',
    apply: 'Aplicar',
    urlError: 'Usa una dirección web que empiece por http:// o https://.',
  },
} as const

for (const language of ['es', 'en'] as const) {
  test(`a customer sends two links, sees the request pending, cancels it; an admin sees it in the queue (${language})`, async ({
    page,
    signInAs,
  }) => {
    // Eight axe scans, the staff request page (with its quote forms) among them: slow on a busy machine.
    test.setTimeout(180_000)
    const words = WORDS[language]
    const email = uniqueEmail(`orders-${language}`)
    await signInAs({ email, name: 'Ana Pérez', language })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard?lang=${language}`)
    await waitForHydration(page)
    await axeAtBothWidths(page)

    // A javascript: link is refused on the field.
    const first = page.getByRole('group', { name: words.item(1) })
    await first.getByLabel(words.url, { exact: true }).fill('javascript:alert(1)')
    await page.getByRole('button', { name: words.send }).click()
    await expect(first.getByText(words.urlError)).toBeVisible()

    await first.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m12345')
    await first.getByLabel(words.quantity, { exact: true }).fill('2')
    await page.getByRole('button', { name: words.add }).click()
    const second = page.getByRole('group', { name: words.item(2) })
    await second.getByLabel(words.url, { exact: true }).fill('https://www.amazon.co.jp/dp/B0TEST')
    await page.getByRole('button', { name: words.send }).click()

    await expect(page.getByRole('status').filter({ hasText: words.sent })).toBeVisible()
    const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/PR-\d{6}/)?.[0] ?? ''
    expect(number).toMatch(/^PR-\d{6}$/)
    await axeAtBothWidths(page)

    await page.getByRole('link', { name: words.history, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.history)
    const row = page.getByTestId('request-row').filter({ hasText: number })
    await expect(row).toContainText(words.pending)
    await expect(row).toContainText('2 × jp.mercari.com')
    await expect(row).toContainText('1 × amazon.co.jp')
    await axeAtBothWidths(page)

    await row.getByRole('link').click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(number)
    await expect(page.getByRole('link', { name: /jp\.mercari\.com|Mercari/ })).toHaveAttribute(
      'target',
      '_blank',
    )
    await page.getByRole('button', { name: words.cancel }).click()
    await expect(page.getByRole('status').filter({ hasText: words.cancelled })).toBeVisible()
    await expect(page.getByRole('button', { name: words.cancel })).toHaveCount(0)
    await expect(page.locator('article header')).toContainText(words.cancelledStatus)

    // The same browser becomes an admin's.
    await signInAs({ email: uniqueEmail(`orders-admin-${language}`), role: 'admin', language })
    await page.goto(`/admin-dashboard/requests?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.queue)
    await page.getByLabel(words.search, { exact: true }).fill(email)
    await page.getByRole('button', { name: words.apply }).click()
    await expect(page).toHaveURL(/q=/)
    const queueRow = page.getByTestId('queue-row')
    await expect(queueRow).toHaveCount(1)
    await expect(queueRow).toContainText(number)
    await expect(queueRow).toContainText(words.cancelledStatus)
    await axeAtBothWidths(page)

    await queueRow.getByRole('link', { name: number }).click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(number)
    await expect(page.getByText(email)).toBeVisible()
    await expect(page.locator('a[href="https://jp.mercari.com/item/m12345"]')).toHaveAttribute(
      'target',
      '_blank',
    )
    await axeAtBothWidths(page)
  })
}
