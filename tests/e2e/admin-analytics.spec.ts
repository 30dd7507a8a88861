import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'

// The analytics tab in both languages: this month by default, another preset through the form
// (its address changes), the CSV link, the charts' tables for screen readers; axe at 375 and 1280.

const LOCALES = { es: esLocale, en: enLocale }

for (const language of ['es', 'en'] as const) {
  test(`an admin reads the analytics of this month and of last year (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    const t = LOCALES[language]
    const admin = await insertSignedInAccount({
      email: uniqueEmail(`analytics-${language}`),
      role: 'admin',
      language,
    })
    await context.addCookies([
      {
        name: 'better-auth.session_token',
        value: admin.cookie,
        url: baseURL ?? '',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ])
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/admin-dashboard/analytics?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.analytics.title)
    await expect(page.getByLabel(t.analytics.period, { exact: true })).toHaveValue('this_month')
    // At least the admin who just joined.
    await expect(page.getByTestId('figure-newUsers')).not.toHaveText('0')
    await expect(page.getByRole('img', { name: t.analytics.requestsPerDay })).toBeVisible()
    await expect(page.getByRole('table', { name: t.analytics.requestsPerDay })).toBeAttached()
    await axeAtBothWidths(page, `analytics-${language}`)

    await page.getByLabel(t.analytics.period, { exact: true }).selectOption('last_year')
    await page.getByRole('button', { name: t.analytics.apply }).click()
    await expect(page).toHaveURL(/preset=last_year/)
    const lastYear = new Date().getFullYear() - 1
    await expect(page.getByTestId('analytics-period')).toContainText(`${lastYear}-01-01`)
    await expect(page.getByRole('img', { name: t.analytics.requestsPerMonth })).toBeVisible()
    await expect(page.getByRole('link', { name: t.analytics.csv })).toHaveAttribute(
      'href',
      '/admin-dashboard/analytics.csv?preset=last_year',
    )
    const download = await page.request.get('/admin-dashboard/analytics.csv?preset=last_year')
    expect(download.status()).toBe(200)
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8')
    expect(await download.text()).toContain(`${t.analytics.figures.requests},`)
  })
}
