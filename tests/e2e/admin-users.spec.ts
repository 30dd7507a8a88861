import type { BrowserContext } from '@playwright/test'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { signIn } from './accounts.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertAccount, insertSignedInAccount } from './outbox.ts'

// The admin panel's users, in both languages: an admin finds a customer by name without the
// accents, gives them another role (the spec's toast), opens their page and disables the account;
// the customer can no longer sign in. Axe at 375 and 1280 px on the list and the user's page.

const LOCALES = { es: esLocale, en: enLocale }

async function actAs(context: BrowserContext, baseURL: string, cookie: string) {
  await context.addCookies([
    { name: 'better-auth.session_token', value: cookie, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

for (const language of ['es', 'en'] as const) {
  test(`an admin finds a customer without accents, changes the role, disables the account; it cannot sign in (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const t = LOCALES[language]
    // A name no other test uses, with accents the search leaves out.
    const tag = uniqueEmail('x').split('.')[1] ?? ''
    const email = uniqueEmail(`users-${language}`)
    await insertAccount({ email, name: `José Pérez ${tag}`, language })
    const admin = await insertSignedInAccount({
      email: uniqueEmail(`users-admin-${language}`),
      role: 'admin',
      language,
    })
    await actAs(context, baseURL ?? '', admin.cookie)

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/admin-dashboard/users?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.adminUsers.title)
    await page.getByLabel(t.adminUsers.search, { exact: true }).fill(`jose perez ${tag}`)
    await page.getByRole('button', { name: t.adminUsers.apply }).click()
    await expect(page).toHaveURL(new RegExp(`q=jose\\+perez\\+${tag}`))
    const row = page.getByTestId('user-row')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText(email)
    await expect(row).toContainText(t.session.roles.user)
    await axeAtBothWidths(page, `users-${language}`)

    await row.getByLabel(t.adminUsers.newRoleFor.replace('{{email}}', email)).selectOption('moderator')
    await row.getByRole('button', { name: t.adminUsers.changeRoleFor.replace('{{email}}', email) }).click()
    const toast = page.getByRole('status')
    await expect(toast).toContainText(t.roles.assignedTitle)
    await expect(toast).toContainText(t.roles.assignedText.replace('{{role}}', t.session.roles.moderator))
    await expect(page.getByTestId('user-row')).toContainText(t.session.roles.moderator)

    await page.getByRole('link', { name: email }).click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(email)
    await axeAtBothWidths(page, `user-${language}`)
    await page.getByLabel(t.adminUsers.disableReason, { exact: true }).fill('Chargeback')
    await page.getByRole('button', { name: t.adminUsers.disable }).click()
    await expect(page.getByRole('status')).toHaveText(t.adminUsers.done.disabled)
    await expect(page.getByRole('main')).toContainText(
      t.adminUsers.disabledBecause.replace('{{reason}}', 'Chargeback'),
    )
    await expect(page.getByRole('main')).toContainText(t.audit.kinds.user_disable)
    await axeAtBothWidths(page, `user-disabled-${language}`)

    // The customer tries to sign in.
    await context.clearCookies()
    await signIn(page, email, undefined, language)
    await expect(page.getByRole('alert')).toContainText(t.errors.reasons.accountDisabled)
  })
}
